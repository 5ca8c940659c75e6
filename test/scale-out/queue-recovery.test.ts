import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { calls, jsonReports, killAll, svcReport as spawnReport, valuedItems, waitFor } from './support/processes';

/**
 * The queued month-end interrupted and completed: the coordinating run stopped with Ctrl-C and
 * run again with --resume; Redis stopped mid-run and started again, empty, on the same port
 * (persistence off, as in these tests). Real CLI processes, a real redis-server, the sandbox's
 * request log decides; the reports are compared with a one-process run's.
 */

const MINUTE_MS = 1000;
const PER_MINUTE = 20;
const PORTFOLIOS = 3;
const HOLDINGS = 400;
const TOTAL = PORTFOLIOS * HOLDINGS;
const dir = mkdtempSync(join(tmpdir(), 'svc-queue-recovery-'));
const logFile = join(dir, 'requests.jsonl');
const secret = `recovery-${randomUUID()}`;
const common = ['--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', '2026-10-30', '--formats', 'json'];
let sandbox: RunningSandbox;
let redis: RedisProcess;
let reference: Record<string, string>;

const svcReport = (args: string[], clientId: string) => spawnReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: clientId, SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1' });
const workerArgs = () => ['worker', '--out', dir, '--redis', redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--lock-ms', '2000'];
const queuedRun = (out: string, ...more: string[]) => ['run', join(dir, 'holdings.csv'), '--out', join(dir, out), '--queue', '--redis', redis.url, ...common, ...more];

beforeAll(async () => {
  const accounts = ['single', 'resume', 'restart'].map((client_id) => ({ client_id, client_secret: secret, tier: 'pro' as const, per_minute: PER_MINUTE, per_day: 100_000 }));
  sandbox = await startSandbox({ port: 0, quiet: true, minuteMs: MINUTE_MS, logFile, accounts });
  redis = await startRedis();
  writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(PORTFOLIOS, HOLDINGS));
  const single = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'single'), ...common], 'single');
  expect(await single.exit).toBe(0);
  reference = jsonReports(join(dir, 'single'));
}, 180_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await redis?.stop();
});

describe('a queued month-end interrupted, then completed', () => {
  it('the coordinating run stopped with Ctrl-C, then run with --resume: completes, reports identical, nothing valued twice, zero 429s', async () => {
    const worker = svcReport(workerArgs(), 'resume');
    await worker.said(/Worker ready/);
    const first = svcReport(queuedRun('resume'), 'resume');
    await waitFor(() => valuedItems(logFile, 'resume') >= 150);
    first.child.kill('SIGINT');
    expect(await first.exit).toBe(130);
    expect(first.output).toMatch(/The portfolios stay on the queue .*--resume/);
    // The worker keeps valuing what is queued; the resumed run finds the same jobs (their ids) and waits for them.
    const resumed = svcReport(queuedRun('resume', '--resume'), 'resume');
    expect(await resumed.exit).toBe(0);
    expect(resumed.output).toContain('Resuming');
    expect(jsonReports(join(dir, 'resume'))).toEqual(reference);
    expect(valuedItems(logFile, 'single')).toBe(TOTAL);
    expect(valuedItems(logFile, 'resume')).toBe(TOTAL);
    expect(calls(logFile, 'resume').filter((l) => l.status === 429)).toEqual([]);
    worker.child.kill('SIGTERM');
    await worker.exit;
  }, 240_000);

  it('Redis stopped mid-run and started again empty on the same port: the run re-queues its lost portfolios and completes, reports identical, no 429 storm', async () => {
    const workers = [svcReport(workerArgs(), 'restart'), svcReport(workerArgs(), 'restart')];
    await Promise.all(workers.map((w) => w.said(/Worker ready/)));
    const run = svcReport(queuedRun('restart'), 'restart');
    await waitFor(() => valuedItems(logFile, 'restart') >= 250);
    await redis.stop();
    // Every process notices (its gate goes to its local share) before Redis is back.
    await Promise.all(workers.map((w) => w.said(/Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable/)));
    await redis.restart();
    expect(await run.exit).toBe(0);
    expect(run.output).toMatch(/Redis no longer has \d+ of this run's portfolio jobs? .*queued again/);
    expect(jsonReports(join(dir, 'restart'))).toEqual(reference);
    // What Redis had recorded is gone with it (no persistence): those holdings are valued again, nothing is missing.
    expect(valuedItems(logFile, 'restart')).toBeGreaterThanOrEqual(TOTAL);
    // At most the calls already granted when Redis went away may meet a spent window.
    expect(calls(logFile, 'restart').filter((l) => l.status === 429).length).toBeLessThanOrEqual(3);
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exit));
  }, 300_000);
});
