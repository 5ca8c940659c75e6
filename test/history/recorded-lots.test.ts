import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresProcess } from '../../fixtures/postgres-server';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

/**
 * Issue 34, end to end: a month-end with a sale from a named lot and six bottles sold from a case,
 * run by the command against the sandbox and recorded in the embedded database and in a real
 * PostgreSQL server; `history show --transactions` reads back each row's lot and unit from both.
 */
const LEDGER = [
  'date,type,portfolio,segment,brand,model,reference,year,unit,lot,quantity,amount,currency,notes',
  '2025-01-15,buy,Okafor,watches,Rolex,Submariner Date,126610LN,2021,,Sub A,1,12500,USD,',
  '2025-01-20,buy,Okafor,watches,Rolex,Submariner Date,126610LN,2021,,Sub B,1,14800,USD,a second one',
  '2025-02-01,buy,Okafor,wine,Petrus,Pomerol,,2010,case,,1,48000,USD,a case',
  '2025-03-10,sell,Okafor,wine,Petrus,Pomerol,,2010,bottle,,6,30000,USD,half the case',
  '2025-03-20,sell,Okafor,watches,Rolex,Submariner Date,126610LN,2021,,Sub B,1,15900,USD,the dearer one',
].join('\n') + '\n';
const AS_OF = '2025-03-31';
/** Each step starts the command (a few seconds each on a loaded 2-core machine, far more beside other suites). */
const SLOW = 600_000;
const WATCH = 'SVC-WAT-ROLEX-126610LN-2021';
const WINE = 'SVC-WIN-PETRUS-POMEROL-2010';
/** What the recorded ledger says of each row: date, type, asset, quantity, unit, lot, amount. */
const RECORDED = [
  ['2025-01-15', 'buy', WATCH, 1, null, 'Sub A', 12500],
  ['2025-01-20', 'buy', WATCH, 1, null, 'Sub B', 14800],
  ['2025-02-01', 'buy', WINE, 1, 'case', null, 48000],
  ['2025-03-10', 'sell', `${WINE}-S75CL`, 6, 'bottle', null, 30000],
  ['2025-03-20', 'sell', WATCH, 1, null, 'Sub B', 15900],
];

interface Shown {
  portfolio: string;
  as_of: string;
  transactions: { date: string; type: string; asset_id: string | null; quantity: number | null; unit: string | null; lot: string | null; amount: number; currency: string; notes: string | null; source: string }[];
}

describe('a month-end with named lots and part of a case, recorded and shown', () => {
  let sb: TestSandbox;
  let pg: PostgresProcess;
  const dir = tempDir('svc-recorded-lots-');
  const ledger = join(dir, 'okafor.csv');
  const targets: Record<'embedded' | 'postgres', string> = { embedded: join(dir, 'db'), postgres: '' };

  beforeAll(async () => {
    writeFileSync(ledger, LEDGER);
    sb = await testSandbox();
    pg = await startPostgres();
    targets.postgres = await pg.newDatabase();
    const runs = await Promise.all(
      (['embedded', 'postgres'] as const).map((k) => runCli(['run', ledger, '--out', join(dir, k), '--as-of', AS_OF, '--db', targets[k], '--formats', 'json'], serviceEnv(sb))),
    );
    for (const r of runs) if (r.code !== 0) throw new Error(`run exited ${r.code}: ${r.stderr.slice(-2000)}`);
  }, SLOW);
  afterAll(async () => {
    sb?.close();
    await pg?.stop();
  });

  const show = async (db: string, ...more: string[]) => {
    const r = await runCli(['history', 'show', '--portfolio', 'Okafor', '--transactions', ...more, '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };

  it('reads back each row with its lot and unit, the same from both databases', async () => {
    const shown: Shown[] = [];
    for (const k of ['embedded', 'postgres'] as const) {
      const doc = JSON.parse(await show(targets[k], '--json')) as Shown;
      expect(doc.as_of).toBe(AS_OF);
      expect(doc.transactions.map((t) => [t.date, t.type, t.asset_id, t.quantity, t.unit, t.lot, t.amount])).toEqual(RECORDED);
      expect(doc.transactions.map((t) => t.source)).toEqual([2, 3, 4, 5, 6].map((row) => `${ledger} row ${row}`));
      shown.push(doc);
    }
    expect(shown[1]).toEqual(shown[0]);
  }, SLOW);

  it('prints them as a table, and --as-of names a month-end that is recorded', async () => {
    const lines = (await show(targets.embedded, '--as-of', AS_OF)).trimEnd().split('\n');
    expect(lines[0]).toBe(`Ledger recorded with the month-end of ${AS_OF}:`);
    expect(lines[1]).toMatch(/^date\s+type\s+asset\s+quantity\s+unit\s+lot\s+amount\s+source$/);
    expect(lines[5]).toMatch(new RegExp(`^2025-02-01\\s+buy\\s+${WINE}\\s+1\\s+case\\s+\\$48,000\\.00\\s+`));
    expect(lines[6]).toMatch(new RegExp(`^2025-03-10\\s+sell\\s+${WINE}-S75CL\\s+6\\s+bottle\\s+\\$30,000\\.00\\s+`));
    expect(lines[7]).toMatch(new RegExp(`^2025-03-20\\s+sell\\s+${WATCH}\\s+1\\s+Sub B\\s+\\$15,900\\.00\\s+`));
    const other = await runCli(['history', 'show', '--portfolio', 'Okafor', '--transactions', '--as-of', '2025-02-28', '--db', targets.embedded]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`no month-end of "Okafor" is recorded on 2025-02-28; recorded: ${AS_OF}`);
    const without = await runCli(['history', 'show', '--transactions', '--db', targets.embedded]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('--transactions needs --portfolio NAME');
  }, SLOW);
});
