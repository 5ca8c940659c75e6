import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLots } from '../../src/ledger';
import { loadLedger } from '../../src/ledger/read-ledger';
import {
  appliedMigrations,
  finishRun,
  ledger,
  MIGRATIONS,
  monthEndHoldings,
  monthEnds,
  monthEndRecords,
  openDatabase,
  portfolioSpans,
  assetHistory,
  portfolios,
  recordMonthEnd,
  recordRun,
  run,
  type Database,
  type HoldingValuation,
  type MonthEndInput,
} from '../../src/db';
import type { LedgerEntry } from '../../src/ledger/types';

/** Where a suite's databases live: a fresh, empty target each call (a folder or a server URL). */
export interface Backend {
  name: 'pglite' | 'postgres';
  fresh(): Promise<string>;
}

const RUN = { toolVersion: '0.1.0-test', serviceUrl: 'https://svc-user:s3cret@api.example.com/v1/?api_key=abc', sandbox: true, command: 'svc-report run a.csv' };

export function holdings(n: number, seed = 0): HoldingValuation[] {
  return Array.from({ length: n }, (_, i) => ({
    row: i + 2,
    assetId: `A-${seed}-${i}`,
    description: `Rolex Daytona ref. 1165${i} — “Paul Newman” ${seed}`,
    quantity: i % 3 === 0 ? 6 : 1,
    // Cents that a float column would not keep: 1234567.89, 0.1 + 0.2 style amounts.
    valueMid: 1_234_567.89 + i * 1000.01 + seed * 0.07,
    valueLow: 1_100_000.1 + i,
    valueHigh: 1_400_000.99 + i,
    currency: i % 2 ? 'EUR' : 'USD',
    confidence: 0.87,
    marketValidated: i % 2 === 0,
    valuationId: `val_${seed}_${i}`,
  }));
}

export function ledgerOf(portfolio: string, n: number, seed = 0): LedgerEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const e: LedgerEntry = {
      portfolio,
      date: `2024-${String((i % 12) + 1).padStart(2, '0')}-15`,
      type: i % 4 === 3 ? 'fee' : 'buy',
      amount: 19_999.99 + i + seed * 0.01,
      currency: 'USD',
      source: { file: 'ledger.xlsx', sheet: 'Transactions', row: i + 2 },
    };
    if (e.type !== 'fee') {
      e.assetId = `A-${seed}-${i}`;
      e.quantity = 12.5;
    } else e.notes = 'custody fee';
    return e;
  }).sort((a, b) => a.date.localeCompare(b.date) || a.source.row - b.source.row);
}

export function monthEnd(portfolio: string, asOf: string, run: number, over: Partial<MonthEndInput> = {}): MonthEndInput {
  return { run, portfolio, asOf, currency: 'USD', value: 2_500_000.01, netFlows: -12_345.67, holdings: holdings(3), ledger: ledgerOf(portfolio, 4), ...over };
}

async function count(db: Database, table: 'month_ends' | 'holding_valuations' | 'ledger_entries' | 'portfolios' | 'runs'): Promise<number> {
  const r = await db.kysely.selectFrom(table).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

export { count };

const VALUE_BY_MONTH: Record<string, number> = { '12': 1200.12, '01': 100.01, '02': 200.02, '03': 300.03, '04': 400.04 };

export function databaseCases(backend: Backend): void {
  const open: Database[] = [];
  const opened = async (target: string) => {
    const db = await openDatabase(target);
    open.push(db);
    return db;
  };
  afterAll(async () => {
    await Promise.all(open.map((db) => db.close()));
  });

  describe(`${backend.name}: schema`, () => {
    it('applies the migrations on a fresh database, and none again on reopen', async () => {
      const target = await backend.fresh();
      const db = await openDatabase(target);
      expect(db.kind).toBe(backend.name);
      // A server's fresh database runs every migration; a new embedded folder starts from the
      // migrated empty copy (issue 34: pglite-template.test.ts), so it has them all and runs none.
      expect(db.migrated).toEqual(backend.name === 'pglite' ? [] : Object.keys(MIGRATIONS));
      expect(await appliedMigrations(db.kysely)).toEqual(Object.keys(MIGRATIONS));
      const runId = await recordRun(db, RUN);
      await recordMonthEnd(db, monthEnd('Hartley', '2025-01-31', runId));
      await db.close();

      const again = await opened(target);
      expect(again.migrated).toEqual([]);
      expect(await appliedMigrations(again.kysely)).toEqual(Object.keys(MIGRATIONS));
      // The data survived the reopen.
      expect(await monthEnds(again, 'Hartley')).toHaveLength(1);
    });

    it('0003 on a database recorded before it: its ledgers read back as they were, with no lot or unit', async () => {
      const target = await backend.fresh();
      const db = await openDatabase(target);
      const runId = await recordRun(db, RUN);
      const before = monthEnd('Older', '2025-01-31', runId);
      await recordMonthEnd(db, before);
      // Back to the schema before 0003, as a database recorded by the previous release is.
      const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => MIGRATIONS } });
      expect((await migrator.migrateTo('0002_approvals')).error).toBeUndefined();
      const columns = await db.kysely.selectFrom('information_schema.columns' as never).select(sql<string>`column_name`.as('c')).where(sql`table_name`, '=', 'ledger_entries').execute();
      expect(columns.map((c) => c.c)).not.toContain('lot');
      await db.close();

      const again = await opened(target);
      // 0003 and every migration after it (0004, issue 37) are applied on reopening.
      expect(again.migrated).toEqual(Object.keys(MIGRATIONS).filter((m) => m > '0002_approvals'));
      expect(await ledger(again, 'Older')).toEqual(before.ledger);
    });
  });

  describe(`${backend.name}: month-ends`, () => {
    let db: Database;
    let runId: number;
    it('records a month-end and reads it back equal, numerics exact to the cent', async () => {
      db = await opened(await backend.fresh());
      runId = await recordRun(db, RUN);
      const input = monthEnd('Meridian', '2025-03-31', runId, { holdings: holdings(50, 1), ledger: ledgerOf('Meridian', 20, 1), value: 98_765_432.1, netFlows: 0.01 });
      const rec = await recordMonthEnd(db, input);
      expect(rec.replaced).toBe(false);
      expect(await monthEnds(db, 'Meridian')).toEqual([{ asOf: '2025-03-31', value: 98_765_432.1, netFlows: 0.01, currency: 'USD' }]);
      expect(await monthEndHoldings(db, 'Meridian', '2025-03-31')).toEqual(input.holdings);
      expect(await ledger(db, 'Meridian')).toEqual(input.ledger);
      expect(await ledger(db, 'Meridian', '2025-03-31')).toEqual(input.ledger);
      expect(await portfolios(db)).toEqual(['Meridian']);
      // The run, its service URL without user, password or query.
      expect(await run(db, runId)).toMatchObject({ toolVersion: '0.1.0-test', serviceUrl: 'https://api.example.com/v1', sandbox: true, command: 'svc-report run a.csv', finishedAt: null });
      // Stored as numeric text, exactly what was written.
      const raw = await db.kysely.selectFrom('month_ends').select(sql<string>`value::text`.as('v')).executeTakeFirstOrThrow();
      expect(raw.v).toBe('98765432.1');
    });

    it('re-recording a month replaces it: counts unchanged, values updated, other months untouched', async () => {
      const before = monthEnd('Ng', '2025-01-31', runId);
      await recordMonthEnd(db, before);
      await recordMonthEnd(db, monthEnd('Ng', '2025-02-28', runId));
      const counts = { m: await count(db, 'month_ends'), h: await count(db, 'holding_valuations'), l: await count(db, 'ledger_entries') };

      const secondRun = await recordRun(db, { ...RUN, command: 'svc-report run a.csv --again' });
      const after = monthEnd('Ng', '2025-01-31', secondRun, { value: 2_600_000.02, netFlows: 5.05, holdings: holdings(3, 7), ledger: ledgerOf('Ng', 4, 7) });
      const rec = await recordMonthEnd(db, after);
      expect(rec.replaced).toBe(true);
      expect(rec.runId).toBe(secondRun);
      expect({ m: await count(db, 'month_ends'), h: await count(db, 'holding_valuations'), l: await count(db, 'ledger_entries') }).toEqual(counts);
      expect(await monthEnds(db, 'Ng')).toEqual([
        { asOf: '2025-01-31', value: 2_600_000.02, netFlows: 5.05, currency: 'USD' },
        { asOf: '2025-02-28', value: 2_500_000.01, netFlows: -12_345.67, currency: 'USD' },
      ]);
      expect(await monthEndHoldings(db, 'Ng', '2025-01-31')).toEqual(after.holdings);
      expect(await ledger(db, 'Ng', '2025-01-31')).toEqual(after.ledger);
      expect(await monthEndHoldings(db, 'Ng', '2025-02-28')).toEqual(holdings(3));
      const row = await db.kysely.selectFrom('month_ends').select('run_id').where('as_of', '=', '2025-01-31').executeTakeFirstOrThrow();
      expect(row.run_id).toBe(secondRun);
    });

    it('a failed record leaves the month as it was (one transaction)', async () => {
      const good = monthEnd('Ng', '2025-01-31', runId, { value: 1.23 });
      const was = await monthEndHoldings(db, 'Ng', '2025-01-31');
      const bad = { ...good, holdings: [...holdings(2, 9), { ...holdings(1)[0]!, currency: 'TOO-LONG' }] };
      await expect(recordMonthEnd(db, bad)).rejects.toThrow();
      expect(await monthEndHoldings(db, 'Ng', '2025-01-31')).toEqual(was);
      expect((await monthEnds(db, 'Ng'))[0]!.value).toBe(2_600_000.02);
    });

    it('history: ordered by as-of, filtered by from/to inclusive, one portfolio only', async () => {
      for (const asOf of ['2025-03-31', '2024-12-31', '2025-02-28', '2025-01-31', '2025-04-30']) {
        await recordMonthEnd(db, monthEnd('Asora', asOf, runId, { value: VALUE_BY_MONTH[asOf.slice(5, 7)]! }));
      }
      await recordMonthEnd(db, monthEnd('Other', '2025-02-28', runId));
      const all = await monthEnds(db, 'Asora');
      expect(all.map((m) => m.asOf)).toEqual(['2024-12-31', '2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30']);
      expect(all.map((m) => m.value)).toEqual([1200.12, 100.01, 200.02, 300.03, 400.04]);
      expect((await monthEnds(db, 'Asora', { from: '2025-01-31', to: '2025-03-31' })).map((m) => m.asOf)).toEqual(['2025-01-31', '2025-02-28', '2025-03-31']);
      expect((await monthEnds(db, 'Asora', { from: '2025-02-01' })).map((m) => m.asOf)).toEqual(['2025-02-28', '2025-03-31', '2025-04-30']);
      expect((await monthEnds(db, 'Asora', { to: '2025-01-30' })).map((m) => m.asOf)).toEqual(['2024-12-31']);
      expect(await monthEnds(db, 'Nobody')).toEqual([]);
      expect(await portfolios(db)).toEqual(['Asora', 'Meridian', 'Ng', 'Other']);
      // The latest month-end's ledger by default.
      expect(await ledger(db, 'Asora')).toEqual(ledgerOf('Asora', 4));
      expect(await ledger(db, 'Nobody')).toEqual([]);
    });

    it("an asset's history: its value at each month-end summed over the portfolios holding it, by currency, from/to inclusive", async () => {
      const h = (row: number, assetId: string, valueMid: number): HoldingValuation => ({ row, assetId, valueMid, currency: 'USD' });
      // Two portfolios hold the watch in January (one of them twice), one in February; a portfolio in EUR holds it in February too.
      await recordMonthEnd(db, monthEnd('AssetA', '2025-01-31', runId, { holdings: [h(2, 'SVC-WAT-X-1', 100.1), h(3, 'SVC-WAT-X-1', 200.2), h(4, 'SVC-ART-Y-2', 5)] }));
      await recordMonthEnd(db, monthEnd('AssetB', '2025-01-31', runId, { holdings: [h(2, 'SVC-WAT-X-1', 1000.01)] }));
      await recordMonthEnd(db, monthEnd('AssetB', '2025-02-28', runId, { holdings: [h(2, 'SVC-WAT-X-1', 1100.02)] }));
      await recordMonthEnd(db, monthEnd('AssetEur', '2025-02-28', runId, { currency: 'EUR', holdings: [{ ...h(2, 'SVC-WAT-X-1', 900), currency: 'EUR' }] }));
      expect(await assetHistory(db, 'SVC-WAT-X-1')).toEqual([
        { asOf: '2025-01-31', value: 1300.31, currency: 'USD', portfolios: 2 },
        { asOf: '2025-02-28', value: 900, currency: 'EUR', portfolios: 1 },
        { asOf: '2025-02-28', value: 1100.02, currency: 'USD', portfolios: 1 },
      ]);
      expect((await assetHistory(db, 'SVC-WAT-X-1', { from: '2025-02-01', to: '2025-02-28' })).map((m) => m.asOf)).toEqual(['2025-02-28', '2025-02-28']);
      expect(await assetHistory(db, 'SVC-WAT-X-1', { to: '2024-12-31' })).toEqual([]);
      expect(await assetHistory(db, 'SVC-NONE-Z-9')).toEqual([]);
      // What `history show` lists: each month-end's run and holdings count; each portfolio's span.
      expect(await monthEndRecords(db, 'AssetA')).toEqual([{ asOf: '2025-01-31', value: 2_500_000.01, netFlows: -12_345.67, currency: 'USD', runId, holdings: 3 }]);
      expect(await monthEndRecords(db, 'Nobody')).toEqual([]);
      expect((await portfolioSpans(db)).find((s) => s.portfolio === 'AssetB')).toEqual({ portfolio: 'AssetB', first: '2025-01-31', last: '2025-02-28', monthEnds: 2 });
      for (const name of ['AssetA', 'AssetB', 'AssetEur']) {
        await db.kysely.deleteFrom('month_ends').where('portfolio_id', '=', (eb) => eb.selectFrom('portfolios').select('id').where('name', '=', name)).execute();
        await db.kysely.deleteFrom('portfolios').where('name', '=', name).execute();
      }
    });

    it('a month-end can record its run itself; a run is finished when told', async () => {
      const started = new Date('2025-04-01T06:00:00.000Z');
      const rec = await recordMonthEnd(db, monthEnd('Solo', '2025-03-31', 0, { run: { ...RUN, startedAt: started, sandbox: false, command: 'svc-report run solo.csv' } }));
      expect(rec.runId).not.toBe(runId);
      expect(await run(db, rec.runId)).toEqual({ id: rec.runId, startedAt: started.toISOString(), finishedAt: null, toolVersion: '0.1.0-test', serviceUrl: 'https://api.example.com/v1', sandbox: false, command: 'svc-report run solo.csv' });
      const finished = new Date('2025-04-01T06:05:00.000Z');
      await finishRun(db, rec.runId, finished);
      expect((await run(db, rec.runId))!.finishedAt).toBe(finished.toISOString());
      expect(await run(db, 999_999)).toBeUndefined();
      await db.kysely.deleteFrom('month_ends').where('id', '=', rec.id).execute();
      await db.kysely.deleteFrom('portfolios').where('name', '=', 'Solo').execute();
    });

    it("a ledger's named-lot sale and part-case sale: each row's lot, unit and wine stock recorded and read back, the sales matched to the same lots", async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-db-lots-'));
      try {
        const file = join(dir, 'lots.csv');
        writeFileSync(
          file,
          [
            'date,type,portfolio,segment,brand,model,reference,year,unit,lot,quantity,amount,currency,notes',
            '2025-01-10,buy,Lots,watches,Rolex,Daytona,116500LN,2020,,First,1,16700,USD,',
            '2025-02-10,buy,Lots,watches,Rolex,Daytona,116500LN,2020,,Second,1,19950,USD,',
            '2025-03-10,buy,Lots,wine,Petrus,Pomerol,,2010,case,,1,48000,USD,a case',
            '2025-06-10,sell,Lots,watches,Rolex,Daytona,116500LN,2020,,second,1,18850,USD,the dearer one',
            '2025-06-11,sell,Lots,wine,Petrus,Pomerol,,2010,bottle,,6,26000,USD,half the case',
          ].join('\n') + '\n',
        );
        const { entries, problems } = await loadLedger([file], { asOf: '2025-06-30' });
        expect(problems).toEqual([]);
        await recordMonthEnd(db, monthEnd('Lots', '2025-06-30', runId, { ledger: entries }));
        const back = await ledger(db, 'Lots', '2025-06-30');
        // Everything the run read but the asset's descriptors (the month-end's holdings name the assets).
        expect(back).toEqual(entries.map(({ asset: _asset, ...e }) => e));
        expect(back.map((e) => [e.type, e.unit ?? null, e.lot ?? null, e.stock ?? null])).toEqual([
          ['buy', null, 'First', null],
          ['buy', null, 'Second', null],
          ['buy', 'case', null, { id: entries[2]!.assetId, bottlesPerUnit: 12 }],
          ['sell', null, 'second', null],
          ['sell', 'bottle', null, { id: entries[2]!.assetId, bottlesPerUnit: 1 }],
        ]);
        // The recorded ledger gives the realised gains the run's did: the named (dearer) watch, and six bottles of the case.
        const run = buildLots(entries, '2025-06-30');
        const recorded = buildLots(back, '2025-06-30');
        expect(recorded.problems).toEqual([]);
        expect(recorded.realisations).toEqual(run.realisations);
        expect(recorded.realisations.map((r) => [r.lot ?? null, r.quantity, r.cost, r.proceeds])).toEqual([
          ['Second', 1, 19950, 18850],
          [null, 6, 24000, 26000],
        ]);
        expect(recorded.lots.map((l) => [l.name ?? null, l.quantity, l.cost])).toEqual([
          ['First', 1, 16700],
          [null, 6, 24000],
        ]);
        // A unit the schema does not know is refused by the database itself.
        await expect(recordMonthEnd(db, monthEnd('Lots', '2025-07-31', runId, { ledger: [{ ...back[2]!, unit: 'crate' as 'case' }] }))).rejects.toThrow();
        expect((await monthEnds(db, 'Lots')).map((m) => m.asOf)).toEqual(['2025-06-30']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses a bad date or a non-finite number, naming the field', async () => {
      await expect(recordMonthEnd(db, monthEnd('Ng', '31/01/2025', runId))).rejects.toThrow(/asOf must be a date YYYY-MM-DD/);
      await expect(recordMonthEnd(db, monthEnd('Ng', '2025-05-31', runId, { value: Number.NaN }))).rejects.toThrow(/value must be a finite number/);
      await expect(recordMonthEnd(db, monthEnd('Ng', '2025-05-31', runId, { holdings: [{ ...holdings(1)[0]!, valueMid: Infinity }] }))).rejects.toThrow(/holdings\[0\]\.valueMid/);
    });
  });
}
