/** The insurance settings (issue 37): flags over config keys over defaults, and a queued job that carries them and every cover field. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../reports/config';
import { checkJobData } from '../../reports/queue/job-schema';
import { readRunInputs } from '../../reports/run/run-inputs';

const today = new Date('2026-11-21T10:00:00Z');

describe('insurance settings', () => {
  it('--replacement and --insurance-tolerance over replacement and insurance_tolerance in the config; high and 10 % by default', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'insurance-config-'));
    expect(resolveSettings({}, {}, cwd, today).insurance).toEqual({ basis: 'high', tolerance: 0.1 });
    writeFileSync(join(cwd, 'svc-report.config.json'), JSON.stringify({ replacement: 'mid', insurance_tolerance: 15 }));
    expect(resolveSettings({}, {}, cwd, today).insurance).toEqual({ basis: 'mid', tolerance: 0.15 });
    expect(resolveSettings({ replacement: 'high', insuranceTolerance: 5 }, {}, cwd, today).insurance).toEqual({ basis: 'high', tolerance: 0.05 });
    writeFileSync(join(cwd, 'svc-report.config.json'), JSON.stringify({ replacement: 'low' }));
    expect(() => resolveSettings({}, {}, cwd, today)).toThrow(/replacement/);
    writeFileSync(join(cwd, 'svc-report.config.json'), JSON.stringify({ insurance_tolerance: -1 }));
    expect(() => resolveSettings({}, {}, cwd, today)).toThrow(/insurance_tolerance/);
  });
});

describe('a queued job', () => {
  it('carries each holding\'s and lot\'s cover and the run\'s insurance settings through the strict job schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'insurance-job-'));
    const ledgerFile = join(dir, 'ledger.csv');
    writeFileSync(
      ledgerFile,
      ['date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,insured_value,insured_currency,insurer,policy,renewal_date,serial', '2024-01-10,buy,Ashcombe Collection,watches,Omega,Speedmaster,310.30.42.50.01.001,2022,1,7000,USD,8000,CHF,Hiscox,H1,2026-12-01,S9'].join('\n'),
    );
    const loaded = await readRunInputs([resolve(import.meta.dirname, '../fixtures/insurance/holdings.csv'), ledgerFile], { asOf: '2026-09-30' });
    const portfolio = loaded.portfolios[0]!;
    expect(portfolio.holdings.filter((h) => h.cover).length).toBe(6);
    const job = {
      runKey: 'a'.repeat(64),
      runId: 'd'.repeat(32),
      folder: 'run',
      portfolio,
      portfolioSha256: 'b'.repeat(64),
      expiresAt: '2026-11-30T00:00:00.000Z',
      asOf: '2026-09-30',
      currency: 'USD',
      asked: 'USD',
      formats: ['json'],
      insurance: { basis: 'mid', tolerance: 0.05 },
      generatedAt: '2026-09-30T06:00:00.000Z',
      sandbox: true,
      ledger: loaded.ledgers.get(portfolio.name),
    };
    const checked = checkJobData(JSON.parse(JSON.stringify(job)));
    expect(checked, 'why' in checked ? checked.why : '').toMatchObject({ ok: true });
    if (!checked.ok) return;
    expect(checked.data.insurance).toEqual({ basis: 'mid', tolerance: 0.05 });
    expect(checked.data.portfolio.holdings.map((h) => h.cover ?? null)).toEqual(JSON.parse(JSON.stringify(portfolio.holdings.map((h) => h.cover ?? null))));
    expect(checked.data.ledger!.entries.find((e) => e.cover?.insurer === 'Hiscox' && e.cover.insured_currency === 'CHF')).toBeDefined();
    // A job queued before the insurance fields existed still passes.
    const { insurance: _, ...before } = job;
    expect(checkJobData(JSON.parse(JSON.stringify({ ...before, portfolio: { ...portfolio, holdings: portfolio.holdings.map(({ cover: _c, ...h }) => h) } })))).toMatchObject({ ok: true });
    expect(checkJobData(JSON.parse(JSON.stringify({ ...job, insurance: { basis: 'low', tolerance: 0.1 } })))).toMatchObject({ ok: false, why: expect.stringMatching(/^job data insurance\.basis/) });
  });
});
