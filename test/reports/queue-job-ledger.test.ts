import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkJobData } from '../../reports/queue/job-schema';
import { readRunInputs } from '../../reports/run/run-inputs';
import { tempDir } from './helpers';

/**
 * Issue 34: a queued portfolio's ledger reaches the worker whole. A sale of six bottles from a
 * case and a sale from a named lot: the job schema (what a worker accepts) keeps each realisation's
 * lot and unit, so the worker's realised gains are the coordinator's.
 */
describe("a queued job's ledger", () => {
  it('passes the job schema with each realisation\'s lot and unit, and a unit the ledger cannot have is refused', async () => {
    const file = join(tempDir('svc-queue-ledger-'), 'okafor.csv');
    writeFileSync(
      file,
      [
        'date,type,portfolio,segment,brand,model,reference,year,unit,lot,quantity,amount,currency',
        '2025-01-15,buy,Okafor,watches,Rolex,Submariner Date,126610LN,2021,,Sub A,1,12500,USD',
        '2025-01-20,buy,Okafor,watches,Rolex,Submariner Date,126610LN,2021,,Sub B,1,14800,USD',
        '2025-02-01,buy,Okafor,wine,Petrus,Pomerol,,2010,case,,1,48000,USD',
        '2025-03-10,sell,Okafor,wine,Petrus,Pomerol,,2010,bottle,,6,30000,USD',
        '2025-03-20,sell,Okafor,watches,Rolex,Submariner Date,126610LN,2021,,Sub B,1,15900,USD',
      ].join('\n') + '\n',
    );
    const loaded = await readRunInputs([file], { asOf: '2025-03-31' });
    const ledger = loaded.ledgers.get('Okafor')!;
    expect(ledger.realisations.map((r) => [r.lot ?? null, r.unit ?? null, r.quantity])).toEqual([
      [null, 'bottle', 6],
      ['Sub B', null, 1],
    ]);
    const job = (l: unknown) => ({
      runKey: 'a'.repeat(64),
      runId: 'd'.repeat(32),
      folder: 'run',
      portfolio: { name: 'Okafor', files: ['okafor.csv'], holdings: [], problems: [] },
      portfolioSha256: 'b'.repeat(64),
      expiresAt: '2026-11-30T00:00:00.000Z',
      asOf: '2025-03-31',
      currency: 'USD',
      asked: 'USD',
      formats: ['json'],
      generatedAt: '2025-03-31T06:00:00.000Z',
      sandbox: true,
      ledger: l,
    });
    const checked = checkJobData(JSON.parse(JSON.stringify(job(ledger))));
    expect(checked, 'why' in checked ? checked.why : '').toMatchObject({ ok: true });
    expect(checked.ok && checked.data.ledger).toEqual(JSON.parse(JSON.stringify(ledger)));
    const crate = { ...ledger, realisations: ledger.realisations.map((r) => ({ ...r, unit: 'crate' })) };
    expect(checkJobData(JSON.parse(JSON.stringify(job(crate))))).toMatchObject({ ok: false, why: expect.stringMatching(/^job data ledger\.realisations\.0\.unit: /) });
  });
});
