/**
 * Issue 37's history: each month-end records every item's insured value and status (migration
 * 0004), and "under-insured since" is the first month-end of the current unbroken run. The same
 * cases on the embedded database (PGlite) and on a real PostgreSQL server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedMigrations, monthEndHoldings, openDatabase, recordMonthEnd, recordRun, underInsuredSince, type Database, type HoldingValuation } from '../../src/db';
import type { InsuranceStatus } from '../../src/insurance';
import { startPostgres, type PostgresProcess } from '../../fixtures/postgres-server';
import { showHistory } from '../../reports/history/show-history';

const RUN = { toolVersion: 't', serviceUrl: 'http://127.0.0.1:1', sandbox: true, command: 'test' };
const MONTHS = ['2026-06-30', '2026-07-31', '2026-08-31', '2026-09-30'];
/**
 * Per asset, its status at each month-end (null: not held that month; 'none': held, no review).
 * W: under-insured from July on (since 2026-07-31); P: under in June, covered in July, under again
 * from August (since 2026-08-31, the run broken in July); G: under only before the latest month;
 * N: not held in August (breaks the run); R: no review in July.
 */
const STATUS: Record<string, (InsuranceStatus | null | 'none')[]> = {
  W: ['covered', 'under-insured', 'under-insured', 'under-insured'],
  P: ['under-insured', 'covered', 'under-insured', 'under-insured'],
  G: ['under-insured', 'under-insured', 'under-insured', 'covered'],
  N: ['under-insured', 'under-insured', null, 'under-insured'],
  R: ['under-insured', 'none', 'under-insured', 'under-insured'],
  X: ['not-insured', 'not-insured', 'over-insured', 'not-insured'],
};

function holdingsAt(month: number): HoldingValuation[] {
  return Object.entries(STATUS).flatMap(([asset, statuses], i) => {
    const s = statuses[month];
    if (s === null) return [];
    const h: HoldingValuation = { row: i + 2, assetId: asset, description: `Item ${asset}`, valueMid: 1000.01 + i, valueHigh: 1200.02 + i, currency: 'USD' };
    if (s !== 'none') {
      h.insuranceStatus = s!;
      if (s !== 'not-insured') h.insuredValue = 900.05 + i;
    }
    return [h];
  });
}

async function recordAll(db: Database): Promise<void> {
  const run = await recordRun(db, RUN);
  for (const [m, asOf] of MONTHS.entries()) {
    await recordMonthEnd(db, { run, portfolio: 'Ashcombe', asOf, currency: 'USD', value: 1, netFlows: 0, holdings: holdingsAt(m), ledger: [] });
  }
}

function cases(name: string, fresh: () => Promise<string>) {
  describe(`${name}: under-insured since`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await openDatabase(await fresh());
      await recordAll(db);
    });
    afterAll(async () => {
      await db?.close();
    });

    it('migration 0004 applied; each item\'s insured value and status read back as recorded, none where there was no review', async () => {
      expect(await appliedMigrations(db.kysely)).toContain('0004_insurance');
      for (const [m, asOf] of MONTHS.entries()) expect(await monthEndHoldings(db, 'Ashcombe', asOf)).toEqual(holdingsAt(m));
    });

    it('the first month-end of the unbroken run up to the latest before the as-of date', async () => {
      // A report of 2026-10-31 reads the month-ends before it: the latest is 2026-09-30.
      expect(Object.fromEntries(await underInsuredSince(db, 'Ashcombe', '2026-10-31'))).toEqual({ W: '2026-07-31', P: '2026-08-31', N: '2026-09-30', R: '2026-08-31' });
      // A report of 2026-09-30 (re-run) reads up to 2026-08-31: G is under then, since June.
      expect(Object.fromEntries(await underInsuredSince(db, 'Ashcombe', '2026-09-30'))).toEqual({ W: '2026-07-31', P: '2026-08-31', G: '2026-06-30', R: '2026-08-31' });
      expect((await underInsuredSince(db, 'Ashcombe', '2026-06-30')).size).toBe(0);
      expect((await underInsuredSince(db, 'Unknown', '2026-10-31')).size).toBe(0);
    });

    it('history show names each item under-insured at the latest month-end and since when (text and JSON)', async () => {
      const text = (await showHistory(db, { portfolio: 'Ashcombe' })).join('\n');
      expect(text).toMatch(/Under-insured at the month-end of 2026-09-30/);
      expect(text).toMatch(/W\s+Item W\s+.*2026-07-31/);
      expect(text).not.toMatch(/\bG\s+Item G/);
      const json = JSON.parse((await showHistory(db, { portfolio: 'Ashcombe', json: true })).join('\n'));
      expect(json.under_insured.map((u: { asset_id: string; since: string }) => [u.asset_id, u.since]).sort()).toEqual([
        ['N', '2026-09-30'],
        ['P', '2026-08-31'],
        ['R', '2026-08-31'],
        ['W', '2026-07-31'],
      ]);
      expect(json.under_insured.find((u: { asset_id: string }) => u.asset_id === 'W').insured_value).toBe(900.05);
    });
  });
}

const root = mkdtempSync(join(tmpdir(), 'insurance-history-'));
let n = 0;
cases('pglite', async () => join(root, `db-${++n}`));

// A real PostgreSQL server started for this file (a test whose server is missing fails: no skip).
let server: PostgresProcess;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});
cases('postgres', () => server.newDatabase());
