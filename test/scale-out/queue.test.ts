import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { ROOT, sourceCommand } from '../../fixtures/commands';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { startSandbox, type LogLine, type RunningSandbox } from '../../src/sandbox';

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
const children: ChildProcess[] = [];

beforeAll(async () => {
  const accounts = ['queue-account', 'single-account'].map((client_id) => ({ client_id, client_secret: secret, tier: 'pro' as const, per_minute: PER_MINUTE, per_day: 100_000 }));
  sandbox = await startSandbox({ port: 0, quiet: true, minuteMs: MINUTE_MS, logFile, accounts });
  redis = await startRedis();
  writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(PORTFOLIOS, HOLDINGS));
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sandbox?.close();
  await redis?.stop();
});

interface Proc {
  child: ChildProcess;
  stderr: string;
  exit: Promise<number | null>;
  /** Resolves when stderr matches. */
  said(re: RegExp): Promise<RegExpMatchArray>;
}

function svcReport(args: string[], clientId: string): Proc {
  const env = { ...process.env, SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: clientId, SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1', SOURCE_DATE_EPOCH: '1790000000' };
  const child = spawn(process.execPath, [...sourceCommand('svc-report'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const p: Proc = {
    child,
    stderr: '',
    exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    said: (re) =>
      new Promise((resolve) => {
        const check = () => {
          const m = re.exec(p.stderr);
          if (m) {
            child.stderr!.off('data', check);
            resolve(m);
          }
        };
        child.stderr!.on('data', check);
        check();
      }),
  };
  child.stderr!.on('data', (d: Buffer) => (p.stderr += d.toString()));
  child.stdout!.resume();
  return p;
}

const calls = (clientId: string): LogLine[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.client_id === clientId && !l.path.includes('/auth/'));

const valuedItems = (clientId: string) => calls(clientId).filter((l) => l.status === 200 && l.path.endsWith('/valuations/batch')).reduce((n, l) => n + l.items, 0);

const reports = (out: string) =>
  Object.fromEntries(
    readdirSync(out)
      .filter((f) => f.endsWith('.json') && f !== 'manifest.json')
      .map((f) => [f, readFileSync(join(out, f), 'utf8')]),
  );

describe('svc-report run --queue with svc-report worker processes', () => {
  it('a worker killed mid-portfolio: the run still finishes, reports identical to one process, only chunks in flight valued twice, zero 429s', async () => {
    const common = ['--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', '2026-10-30', '--formats', 'json'];
    const single = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'single'), ...common], 'single-account');
    expect(await single.exit).toBe(0);

    const workerArgs = ['worker', '--redis', redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--lock-ms', '2000'];
    const first = svcReport(workerArgs, 'queue-account');
    await first.said(/Worker ready/);
    const run = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'queued'), '--queue', '--redis', redis.url, ...common], 'queue-account');
    // The first worker takes a portfolio (one at a time); once five of its eight valuation chunks have landed it is killed.
    const [, victim] = await first.said(/Valuing "([^"]+)"/);
    while (valuedItems('queue-account') < 250) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    const second = svcReport(workerArgs, 'queue-account');

    expect(await run.exit).toBe(0);
    expect(second.stderr).toContain(`Valuing "${victim}"`);
    expect(reports(join(dir, 'queued'))).toEqual(reports(join(dir, 'single')));
    const total = PORTFOLIOS * HOLDINGS;
    // Only chunks in flight at the kill may be valued twice (a few), never the ≥ 250 holdings that had landed.
    expect(valuedItems('single-account')).toBe(total);
    expect(valuedItems('queue-account')).toBeGreaterThanOrEqual(total);
    expect(valuedItems('queue-account') - total).toBeLessThanOrEqual(4 * 50);
    expect(calls('queue-account').filter((l) => l.status === 429)).toEqual([]);
    second.child.kill('SIGTERM');
    await second.exit;
  }, 240_000);
});
