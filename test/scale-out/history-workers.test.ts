import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { startPostgres, type PostgresProcess } from '../../fixtures/postgres-server';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { close, monthEnds, openDatabase } from '../../src/db';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import type { Spawned } from '../../fixtures/spawned';
import { killAll, svcReport as spawnReport } from './support/processes';

/**
 * Issue 23: "three `--queue` workers writing to one PostgreSQL: each month recorded once".
 * `run --queue` over six portfolios, three `svc-report worker` processes, each with its own
 * connection to one real PostgreSQL server (SVC_DB_URL); each portfolio's month-end is in the
 * database exactly once, with its holdings once, and the value its JSON report shows; running the
 * month again replaces every record (written anew) instead of adding a second.
 */

const PORTFOLIOS = 6;
const HOLDINGS = 5;
const AS_OF = '2026-09-30';
const dir = mkdtempSync(join(tmpdir(), 'svc-history-workers-'));
const secret = `history-${randomUUID()}`;
const CLIENT = 'history-account';
let sandbox: RunningSandbox;
let redis: RedisProcess;
let postgres: PostgresProcess;
let dbUrl: string;
const workers: Spawned[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, accounts: [{ client_id: CLIENT, client_secret: secret, tier: 'pro', per_minute: 100_000, per_day: 1_000_000 }] });
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  dbUrl = await postgres.newDatabase();
  writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(PORTFOLIOS, HOLDINGS));
}, 60_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await redis?.stop();
  await postgres?.stop();
});

// SVC_DB_URL is set to `off` for the whole suite (test/support/temp-root.ts): each process is given the server's URL explicitly.
const svcReport = (args: string[]) => spawnReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: CLIENT, SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1', SVC_DB_URL: dbUrl, TMPDIR: tmpdir() });

/** Each portfolio's current value as its JSON report states it (the consolidated report left out). */
function reportedValues(out: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const f of readdirSync(out).filter((f) => f.endsWith('.json') && f !== 'manifest.json')) {
    const report = JSON.parse(readFileSync(join(out, f), 'utf8')) as { portfolio?: { name: string }; summary?: { current_value: number } };
    // Beside the portfolios' reports: the consolidated one.
    if (report.portfolio?.name.startsWith('Client ') && report.summary) values.set(report.portfolio.name, report.summary.current_value);
  }
  return values;
}

/** Month-end rows per portfolio for AS_OF, their holdings' rows and when each was recorded, straight from the server. */
async function recordedRows(): Promise<{ name: string; count: number; holdings: number; recordedAt: Date }[]> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    // The workers create the schema (the coordinator does not open the database): none is no rows.
    const schema = await client.query<{ t: string | null }>(`select to_regclass('public.month_ends')::text as t`);
    if (schema.rows[0]!.t === null) return [];
    const { rows } = await client.query<{ name: string; count: string; holdings: string; recorded_at: Date }>(
      `select p.name, count(*) as count, max(m.recorded_at) as recorded_at,
              (select count(*) from holding_valuations h join month_ends m2 on m2.id = h.month_end_id where m2.portfolio_id = p.id and m2.as_of = $1) as holdings
         from month_ends m join portfolios p on p.id = m.portfolio_id
        where m.as_of = $1 group by p.id, p.name order by p.name`,
      [AS_OF],
    );
    return rows.map((r) => ({ name: r.name, count: Number(r.count), holdings: Number(r.holdings), recordedAt: r.recorded_at }));
  } finally {
    await client.end();
  }
}

describe('three `--queue` workers recording into one PostgreSQL server', () => {
  it('records each portfolio month-end once, with the value its report shows; a re-run replaces each record', async () => {
    for (let i = 0; i < 3; i++) workers.push(svcReport(['worker', '--out', dir, '--redis', redis.url, '--tier', 'pro']));
    await Promise.all(workers.map((w) => w.said(/Worker ready/)));
    const names = Array.from({ length: PORTFOLIOS }, (_, p) => `Client ${String(p + 1).padStart(4, '0')}`);
    const runMonth = async (out: string) => {
      const run = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, out), '--queue', '--redis', redis.url, '--tier', 'pro', '--as-of', AS_OF, '--formats', 'json', '--db', dbUrl]);
      expect(await run.exit, run.output).toBe(0);
      return reportedValues(join(dir, out));
    };

    const first = await runMonth('first');
    expect([...first.keys()].sort()).toEqual(names);
    const once = await recordedRows();
    expect(once.map((r) => [r.name, r.count, r.holdings])).toEqual(names.map((n) => [n, 1, HOLDINGS]));
    // More than one worker took part (the portfolios were spread, not all recorded by one process).
    expect(workers.filter((w) => /Valuing "/.test(w.output)).length).toBeGreaterThan(1);

    const db = await openDatabase(dbUrl);
    try {
      // The JSON states cents; the database keeps the sum as computed.
      for (const name of names) {
        const recorded = await monthEnds(db, name, { from: AS_OF, to: AS_OF });
        expect(recorded.map((m) => m.asOf), name).toEqual([AS_OF]);
        expect(recorded[0]!.value, name).toBeCloseTo(first.get(name)!, 2);
      }
    } finally {
      await close(db);
    }

    const second = await runMonth('again');
    const again = await recordedRows();
    expect(again.map((r) => [r.name, r.count, r.holdings])).toEqual(names.map((n) => [n, 1, HOLDINGS]));
    // Replaced, not kept: every record was written again by the second run (each worker's run id
    // is the worker's, so the time of recording tells the runs apart).
    for (const [i, r] of again.entries()) expect(r.recordedAt.getTime()).toBeGreaterThan(once[i]!.recordedAt.getTime());
    const db2 = await openDatabase(dbUrl);
    try {
      for (const name of names) {
        const recorded = await monthEnds(db2, name, { from: AS_OF, to: AS_OF });
        expect(recorded, name).toHaveLength(1);
        expect(recorded[0]!.value, name).toBeCloseTo(second.get(name)!, 2);
      }
    } finally {
      await close(db2);
    }
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exit));
  }, 120_000);
});
