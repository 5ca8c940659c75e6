import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { freePort } from '../../fixtures/free-port';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { calls, killAll, svcReport, valuedItems, waitFor } from '../scale-out/support/processes';
import { readJsonLines } from './json-lines';

/**
 * `svc-report worker --health-port` in a real process: health and readiness answer; SIGTERM in
 * the middle of a portfolio makes it hand the portfolio back and exit 0, and another worker
 * finishes it without valuing again the chunks that landed.
 */

const MINUTE_MS = 1000;
const HOLDINGS = 300;
const secret = `worker-stop-${randomUUID()}`;
const dir = mkdtempSync(join(tmpdir(), 'svc-worker-stop-'));
const logFile = join(dir, 'requests.jsonl');
let sandbox: RunningSandbox;
let redis: RedisProcess;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, minuteMs: MINUTE_MS, logFile, accounts: [{ client_id: 'stop-account', client_secret: secret, tier: 'pro', per_minute: 3, per_day: 100_000 }] });
  redis = await startRedis();
  writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(1, HOLDINGS));
}, 60_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: 'stop-account', SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1' });
const common = ['--redis', '', '--tier', 'pro', '--minute-ms', String(MINUTE_MS)];

describe('SIGTERM to svc-report worker', () => {
  it('health and readiness answer on --health-port; mid-portfolio it hands the portfolio back and exits 0; another worker finishes it', async () => {
    common[1] = redis.url;
    const port = await freePort();
    const first = svcReport(['worker', '--out', dir, ...common, '--lock-ms', '2000', '--health-port', String(port), '--log-format', 'json'], env());
    await first.said(/Worker ready/);
    await first.said(/Health on http:\/\/127\.0\.0\.1:\d+\/healthz/);
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, checks: { service: { ok: true }, redis: { ok: true } } });
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).headers.get('content-type')).toMatch(/^text\/plain/);

    const run = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'out'), '--queue', ...common, '--as-of', '2026-10-30', '--formats', 'json'], env());
    await first.said(/Valuing \\"Client 0001\\"/);
    await waitFor(() => valuedItems(logFile, 'stop-account') >= 100);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    const lines = readJsonLines(first.output);
    expect(lines.map((l) => l.msg)).toContain('Worker stopping: portfolios in hand go back to the queue for another worker.');
    expect(lines.every((l) => l.component === 'svc-report-worker')).toBe(true);

    const second = svcReport(['worker', '--out', dir, ...common, '--lock-ms', '2000'], env());
    expect(await run.exit).toBe(0);
    expect(second.output).toContain('Valuing "Client 0001"');
    // Only the chunks in flight at the signal may be valued twice, never what had landed.
    expect(valuedItems(logFile, 'stop-account')).toBeGreaterThanOrEqual(HOLDINGS);
    expect(valuedItems(logFile, 'stop-account') - HOLDINGS).toBeLessThanOrEqual(2 * 50);
    expect(calls(logFile, 'stop-account').filter((l) => l.status === 429)).toEqual([]);
    expect(first.output + second.output + run.output).not.toContain(secret);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 240_000);
});
