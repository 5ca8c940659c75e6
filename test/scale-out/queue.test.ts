import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { calls, htmlReports, jsonReports, killAll, svcReport as spawnReport, valuedItems, waitFor } from './support/processes';

/**
 * Month-end on the BullMQ queue through the real CLI: `run --queue` and two `worker`
 * processes on one account, a real redis-server and the sandbox (its request log decides).
 * One worker is killed with SIGKILL mid-portfolio: BullMQ gives its portfolio to the other,
 * chunks that landed are not valued again, and the reports equal a one-process run's.
 */

const MINUTE_MS = 1000;
const PER_MINUTE = 25;
const PORTFOLIOS = 3;
const HOLDINGS = 400;
const dir = mkdtempSync(join(tmpdir(), 'svc-queue-'));
const logFile = join(dir, 'requests.jsonl');
const secret = `queue-${randomUUID()}`;
let sandbox: RunningSandbox;
let redis: RedisProcess;

beforeAll(async () => {
  const accounts = ['queue-account', 'single-account', 'idle-account'].map((client_id) => ({ client_id, client_secret: secret, tier: 'pro' as const, per_minute: PER_MINUTE, per_day: 100_000 }));
  sandbox = await startSandbox({ port: 0, quiet: true, minuteMs: MINUTE_MS, logFile, accounts });
  redis = await startRedis();
  writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(PORTFOLIOS, HOLDINGS));
  writeFileSync(join(dir, 'small.csv'), holdingsCsv(1, 20));
}, 60_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await redis?.stop();
});

const svcReport = (args: string[], clientId: string) => spawnReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: clientId, SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1' });

describe('svc-report run --queue with svc-report worker processes', () => {
  it('a worker killed mid-portfolio: the run still finishes, reports identical to one process, only chunks in flight valued twice, zero 429s', async () => {
    // The web page too (issue 38): the job schema carries the format, the workers and the coordinator (consolidated) write it.
    const common = ['--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', '2026-10-30', '--formats', 'json,html'];
    const single = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'single'), ...common], 'single-account');
    expect(await single.exit).toBe(0);

    const workerArgs = ['worker', '--out', dir, '--redis', redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--lock-ms', '2000'];
    const first = svcReport(workerArgs, 'queue-account');
    await first.said(/Worker ready/);
    const run = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'queued'), '--queue', '--redis', redis.url, ...common], 'queue-account');
    // The first worker takes a portfolio (one at a time); once five of its eight valuation chunks have landed it is killed.
    const [, victim] = await first.said(/Valuing "([^"]+)"/);
    await waitFor(() => valuedItems(logFile, 'queue-account') >= 250);
    first.child.kill('SIGKILL');
    const second = svcReport(workerArgs, 'queue-account');

    expect(await run.exit).toBe(0);
    expect(second.output).toContain(`Valuing "${victim}"`);
    expect(jsonReports(join(dir, 'queued'))).toEqual(jsonReports(join(dir, 'single')));
    const pages = htmlReports(join(dir, 'queued'));
    // Each portfolio's page and the consolidated one, byte for byte the one-process run's.
    expect(Object.keys(pages)).toHaveLength(PORTFOLIOS + 1);
    expect(pages).toEqual(htmlReports(join(dir, 'single')));
    const total = PORTFOLIOS * HOLDINGS;
    // Only chunks in flight at the kill may be valued twice (a few), never the ≥ 250 holdings that had landed.
    expect(valuedItems(logFile, 'single-account')).toBe(total);
    expect(valuedItems(logFile, 'queue-account')).toBeGreaterThanOrEqual(total);
    expect(valuedItems(logFile, 'queue-account') - total).toBeLessThanOrEqual(4 * 50);
    expect(calls(logFile, 'queue-account').filter((l) => l.status === 429)).toEqual([]);
    second.child.kill('SIGTERM');
    await second.exit;
  }, 240_000);

  it('with no worker it says so after --worker-wait, with how to start one, and finishes once a worker comes', async () => {
    const common = ['--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', '2026-10-30', '--formats', 'json'];
    // Its own Redis keys: a queue nobody else's worker serves.
    const run = svcReport(['run', join(dir, 'small.csv'), '--out', join(dir, 'idle'), '--queue', '--redis', redis.url, '--worker-wait', '1', ...common], 'idle-account');
    await run.said(/No worker has taken any of this run's portfolios in 1 s \(no worker is connected to this Redis\)\. Start one with .*svc-report worker --redis URL/);
    const worker = svcReport(['worker', '--out', dir, '--redis', redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS)], 'idle-account');
    expect(await run.exit).toBe(0);
    expect(run.output.match(/No worker has taken/g)).toHaveLength(1);
    worker.child.kill('SIGTERM');
    await worker.exit;
  }, 240_000);
});
