import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { freePort } from '../../fixtures/free-port';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { commandArgs } from '../../fixtures/commands';
import { spawnNode, type Spawned } from '../../fixtures/spawned';
import { monthEnds, openDatabase } from '../../src/db';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { killAll, svcReport as spawnReport } from '../scale-out/support/processes';

/**
 * Issue 34, "the database as long as it is needed, not longer": one embedded history database
 * (a folder) shared by two `svc-report run` processes of different portfolios started together,
 * a third run on the queue, and a `svc-report worker` idling beside them (a real redis-server).
 * Each holds the folder only while it reads history and while it records, and waits for the
 * others' holds: all finish, every month recorded. Then a holder that keeps it past --db-wait:
 * exit 2 naming it. Events only (stderr lines, exits), no timing.
 */

const AS_OF = '2026-09-30';
const dir = mkdtempSync(join(tmpdir(), 'svc-shared-embedded-'));
const folder = join(dir, 'history-db');
const secret = `shared-${randomUUID()}`;
const CLIENT = 'shared-embedded-account';
let sandbox: RunningSandbox;
let redis: RedisProcess;

/** One portfolio's holdings file, its portfolio renamed. */
function portfolioFile(name: string, holdings: number): string {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.csv`);
  writeFileSync(file, holdingsCsv(1, holdings).replaceAll('Client 0001', name));
  return file;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, accounts: [{ client_id: CLIENT, client_secret: secret, tier: 'pro', per_minute: 100_000, per_day: 1_000_000 }] });
  redis = await startRedis();
}, 60_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await redis?.stop();
});

// SVC_DB_URL is `off` for the whole suite (test/support/temp-root.ts): each process is given --db.
const svcReport = (args: string[]) => spawnReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: CLIENT, SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1', TMPDIR: tmpdir() });

describe('one embedded history database, several processes', () => {
  it('two runs started together and a queued run beside an idle worker: all finish, every month recorded; the idle worker holds nothing', async () => {
    const names = ['Alder Household', 'Birch Trust', 'Cedar Foundation'];
    const [a, b, c] = names.map((n) => portfolioFile(n, 4));
    const common = ['--tier', 'pro', '--as-of', AS_OF, '--formats', 'json', '--db', folder];
    const worker = svcReport(['worker', '--out', dir, '--redis', redis.url, '--tier', 'pro', '--db', folder]);
    await worker.said(/Worker ready/);
    const runs: Spawned[] = [
      svcReport(['run', a!, '--out', join(dir, 'a'), ...common]),
      svcReport(['run', b!, '--out', join(dir, 'b'), ...common]),
      svcReport(['run', c!, '--out', join(dir, 'c'), '--queue', '--redis', redis.url, ...common]),
    ];
    const codes = await Promise.all(runs.map((r) => r.exit));
    expect(codes, runs.map((r) => r.output).join('\n----\n')).toEqual([0, 0, 0]);
    await worker.said(/"Cedar Foundation" done/);
    // Nobody waited for ever, and a waiter said who it waited for once, not a stream.
    for (const r of [...runs, worker]) expect(r.output.match(/is in use by process \d+/g)?.length ?? 0, r.output).toBeLessThanOrEqual(2);

    // The worker is still running, idle: the folder is free at once (no wait allowed).
    expect(worker.child.exitCode).toBeNull();
    const db = await openDatabase(folder, { waitMs: 0 });
    try {
      for (const name of names) expect((await monthEnds(db, name)).map((m) => m.asOf), name).toEqual([AS_OF]);
    } finally {
      await db.close();
    }
    worker.child.kill('SIGTERM');
    expect(await worker.exit).toBe(0);
  }, 300_000);

  it('a holder keeping the folder past --db-wait: run exits 2 naming it, having said once that it waits', async () => {
    const holder = await openDatabase(folder, { command: 'test holder' });
    try {
      const run = svcReport(['run', portfolioFile('Alder Household', 2), '--out', join(dir, 'held'), '--tier', 'pro', '--as-of', AS_OF, '--formats', 'json', '--db', folder, '--db-wait', '1']);
      expect(await run.exit, run.output).toBe(2);
      expect(run.output.match(new RegExp(`is in use by process ${process.pid} \\(test holder, since \\d{4}-[\\d-]+T[\\d:]+Z\\); waiting up to 1 s for it \\(--db-wait\\)`, 'g'))).toHaveLength(1);
      expect(run.output).toMatch(new RegExp(`svc-report: The database folder .* is in use: process ${process.pid} \\(test holder, since [^)]+\\) holds it, and it was not free within 1 s \\(--db-wait\\)`));
      // Refused before any call was spent: nothing written.
      expect(existsSync(join(dir, 'held', 'alder-household.json'))).toBe(false);
    } finally {
      await holder.close();
    }
  }, 120_000);

  it('history show and approve refuse a folder that holds no database, creating nothing; history show reads the shared one', async () => {
    const typo = join(dir, 'typo-folder');
    const show = svcReport(['history', 'show', '--db', typo]);
    expect(await show.exit, show.output).toBe(2);
    expect(show.output).toContain(`the history database folder ${typo} holds no database`);
    const approve = svcReport(['approve', join(dir, 'a'), '--by', 'Ann Reviewer <ann@firm.example>', '--db', typo, '--allow-sandbox']);
    expect(await approve.exit, approve.output).toBe(2);
    expect(approve.output).toContain(`the history database folder ${typo} holds no database`);
    expect(approve.output).toContain('nothing was decided');
    expect(existsSync(typo)).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'a', 'manifest.json'), 'utf8')).approvals ?? []).toEqual([]);

    const listed = svcReport(['history', 'show', '--db', folder, '--json']);
    expect(await listed.exit, listed.output).toBe(0);
    expect(listed.output).toContain('"portfolio": "Birch Trust"');
  }, 120_000);

  it('a worker and the host whose database cannot be opened exit 2 naming it, never its password (--db and SVC_DB_URL)', async () => {
    const port = await freePort();
    const encoded = `postgres://svc:Pw%2FSl%40sh@127.0.0.1:${port}/history`;
    const unencoded = `postgres://svc:Pw/Sl@sh@127.0.0.1:${port}/history`;
    const workerArgs = ['worker', '--out', join(dir, 'w'), '--redis', redis.url, '--tier', 'pro'];
    const hostEnv = { ADDIN_PORT: '0', SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: CLIENT, SVC_CLIENT_SECRET: secret, ADDIN_LOG_FORMAT: 'json' };
    const processes = [
      svcReport([...workerArgs, '--db', encoded]),
      spawnReport(workerArgs, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: CLIENT, SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1', SVC_DB_URL: unencoded }),
      spawnNode(commandArgs('addin-serve'), { ...hostEnv, SVC_DB_URL: encoded }),
      spawnNode(commandArgs('addin-serve'), { ...hostEnv, SVC_DB_URL: unencoded }),
    ];
    const codes = await Promise.all(processes.map((p) => p.exit));
    expect(codes, processes.map((p) => p.output).join('\n----\n')).toEqual([2, 2, 2, 2]);
    const server = `Could not open the PostgreSQL server at 127.0.0.1:${port} (database history, user svc): `;
    for (const i of [0, 2]) expect(processes[i]!.output).toContain(`${server}nothing is listening there`);
    for (const i of [1, 3]) expect(processes[i]!.output).toContain(`${server}its URL cannot be read as written`);
    for (const p of processes) for (const trace of ['Pw%2FSl%40sh', 'Pw/Sl@sh', 'Sl%40sh', 'Sl@sh']) expect(p.output).not.toContain(trace);
  }, 180_000);
});
