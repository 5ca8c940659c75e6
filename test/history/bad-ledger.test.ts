import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, monthEnds, openDatabase } from '../../src/db';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

/**
 * Issue 23: a ledger's bad rows are refused by row and field with what is allowed, and the rest of
 * the portfolio is still reported (and recorded); rows after the as-of date are counted on stderr.
 * Through the command, against the sandbox over HTTP.
 */
describe('a ledger with bad rows', () => {
  let sb: TestSandbox;
  const dir = tempDir('svc-history-bad-');
  const ledger = join(dir, 'ledger.csv');
  const WATCH = 'watches,Rolex,Datejust 41,126334,2019';
  const WINE = 'wine,Château Margaux,Margaux,,2014';
  const ART = 'art,Banksy,Girl with Balloon,,2004';

  beforeAll(async () => {
    writeFileSync(
      ledger,
      [
        'date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,notes',
        `2025-01-10,buy,Okafor,${WATCH},1,9900,USD,`, // row 2: good
        `2025-02-10,buy,Okafor,${WINE},2,13600,USD,`, // row 3: good
        `2025-03-10,sell,Okafor,${WINE},5,30000,USD,more than held`, // row 4: 2 held
        `2025-01-05,sell,Okafor,${ART},1,50000,USD,before its purchase`, // row 5: bought on row 7
        `2025-03-15,gift,Okafor,${WATCH},1,100,USD,unknown type`, // row 6
        `2025-04-01,buy,Okafor,${ART},1,41000,USD,`, // row 7: good
        `2025-04-02,fee,Okafor,${WATCH.replace('126334', '116500LN').replace('Datejust 41', 'Daytona')},,200,USD,fee on an asset not held`, // row 8
        `2025-04-20,sell,Okafor,${WINE},1,7000,USD,partial sale`, // row 9: good
        `2025-07-01,sell,Okafor,${WATCH},1,12000,USD,after the as-of date`, // row 10: later month-end
      ].join('\n') + '\n',
    );
    sb = await testSandbox();
  });
  afterAll(() => sb?.close());

  it('refuses each bad row by row and field, reports and records the rest, counts the later rows', async () => {
    const db = join(dir, 'db');
    const out = join(dir, 'out');
    const r = await runCli(['run', ledger, '--out', out, '--as-of', '2025-04-30', '--db', db, '--formats', 'json'], serviceEnv(sb));
    expect(r.code, r.stderr).toBe(3);
    const report = JSON.parse(readFileSync(join(out, 'okafor-2025-04-30.json'), 'utf8'));
    const errors = report.errors.map((e: { row: number; field: string; message: string }) => [e.row, e.field, e.message]);
    expect(errors).toEqual([
      [4, 'quantity', expect.stringMatching(/sells 5 of .* but 2 is held on 2025-03-10; allowed: at most 2/)],
      [5, 'date', expect.stringMatching(/before its first purchase \(2025-04-01\); allowed: a date on or after 2025-04-01/)],
      [6, 'type', expect.stringMatching(/type must be one of buy, sell, fee, income, transfer_in, transfer_out.*"gift"/)],
      [8, 'asset_id', expect.stringMatching(/a fee on .*DAYTONA|a fee on .*116500LN.*not held on 2025-04-02; allowed: an asset held that day, or no asset for the portfolio as a whole/)],
    ]);
    // Nothing else lost: the watch, the art and one case of wine (two bought, one sold) are reported.
    const held = report.holdings.map((h: { segment: string; quantity: number }) => [h.segment, h.quantity]).sort();
    expect(held).toEqual([
      ['art', 1],
      ['watches', 1],
      ['wine', 1],
    ]);
    expect(report.realised_gain.lines).toHaveLength(1);
    expect(report.realised_gain.lines[0]).toMatchObject({ sold: '2025-04-20', quantity: 1, cost: 6800, proceeds: 7000, gain: 200 });
    expect(r.stderr).toMatch(/1 transaction is dated after 2025-04-30: left out of this month-end/);
    // The month-end is recorded with the value the report shows.
    const opened = await openDatabase(db);
    try {
      const recorded = await monthEnds(opened, 'Okafor');
      expect(recorded.map((m) => m.asOf)).toEqual(['2025-04-30']);
      expect(recorded[0]!.value).toBeCloseTo(report.summary.current_value, 2);
    } finally {
      await close(opened);
    }
  }, 120_000);

  it('records into the default database under the user data folder, and says where', async () => {
    const data = join(dir, 'xdg');
    const out = join(dir, 'out-default');
    const r = await runCli(['run', ledger, '--out', out, '--as-of', '2025-04-30', '--formats', 'json'], { ...serviceEnv(sb), SVC_DB_URL: '', XDG_DATA_HOME: data });
    const where = join(data, 'svc-report', 'db');
    expect(r.stderr).toContain(`History database: ${where} (embedded); --db chooses another.`);
    const opened = await openDatabase(where);
    try {
      expect((await monthEnds(opened, 'Okafor')).map((m) => m.asOf)).toEqual(['2025-04-30']);
    } finally {
      await close(opened);
    }
  }, 120_000);

  it('records nothing with --db off, and says so', async () => {
    const r = await runCli(['run', ledger, '--out', join(dir, 'out-off'), '--as-of', '2025-04-30', '--db', 'off', '--formats', 'json'], serviceEnv(sb));
    expect(r.stderr).toMatch(/History database: off/);
    expect(r.code).toBe(3);
  }, 120_000);
});
