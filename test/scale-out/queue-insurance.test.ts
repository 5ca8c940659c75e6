/**
 * The insurance review on the queue (issue 37): a month-end run with `run --queue` and a
 * `worker` (real redis-server, the sandbox) writes the same review as a run in one process,
 * with the run's --replacement and --insurance-tolerance carried in the signed job.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonReports, startQueueStack } from './support/processes';

const MINUTE_MS = 1000;
const dir = mkdtempSync(join(tmpdir(), 'svc-queue-insurance-'));
const HOLDINGS = resolve(import.meta.dirname, '../fixtures/insurance/holdings.csv');
const RATES = resolve(import.meta.dirname, '../../examples/fx-rates-ILLUSTRATIVE.csv');
const secret = `queue-${randomUUID()}`;
let stack: Awaited<ReturnType<typeof startQueueStack>>;

beforeAll(async () => {
  stack = await startQueueStack(['queue-account', 'single-account'].map((client_id) => ({ client_id, client_secret: secret, tier: 'pro', per_minute: 600, per_day: 100_000 })), MINUTE_MS);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

const svcReport = (args: string[], clientId: string) => stack.svcReport(args, clientId);

describe('the insurance review through the queue', () => {
  it("a queued run's review equals one process's, with the run's basis and tolerance", async () => {
    const common = ['--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', '2026-09-30', '--formats', 'json', '--db', 'off', '--fx-rates', RATES, '--replacement', 'mid', '--insurance-tolerance', '2'];
    const single = svcReport(['run', HOLDINGS, '--out', join(dir, 'single'), ...common], 'single-account');
    expect(await single.exit).toBe(0);
    const worker = svcReport(['worker', '--out', dir, '--redis', stack.redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--db', 'off'], 'queue-account');
    await worker.said(/Worker ready/);
    const run = svcReport(['run', HOLDINGS, '--out', join(dir, 'queued'), '--queue', '--redis', stack.redis.url, ...common], 'queue-account');
    expect(await run.exit).toBe(0);
    worker.child.kill('SIGTERM');
    await worker.exit;

    const review = (folder: string) =>
      Object.values(jsonReports(join(dir, folder)))
        .map((text) => (JSON.parse(text) as { insurance?: unknown }).insurance)
        .filter(Boolean);
    const queued = review('queued') as { basis: string; tolerance: number; items: unknown[] }[];
    expect(queued).toHaveLength(1);
    expect(queued[0]!.basis).toBe('mid');
    expect(queued[0]!.tolerance).toBeCloseTo(0.02, 10);
    expect(queued[0]!.items.length).toBe(6);
    expect(queued).toEqual(review('single'));
  }, 240_000);
});
