/**
 * Past one machine (issue 14): many processes on ONE Starter-like account (60 calls a window,
 * 3-second windows by default) through a real redis-server, against the sandbox in its own process.
 *
 *   npx tsx bench/scale-out.ts [--portfolios 10] [--holdings 600] [--client-items 6000] [--window-ms 3000]
 *
 * Three runs, one after the other, each on a fresh account of the same sandbox:
 *   baseline  one process alone valuing 2 × --client-items with its own in-memory gate: what
 *          this machine reaches today (the shared runs are compared with it).
 *   clean  `svc-report run --queue` with 3 `svc-report worker` processes, and at the same time
 *          2 other processes valuing through ServiceClient with the shared Redis gate (standing
 *          in for two add-in host replicas): zero 429s, every holding valued exactly once,
 *          combined calls per window ÷ the ceiling of 60.
 *   kill   the same with one worker kill -9'ed once 250 holdings have been valued: the run
 *          still finishes (exit 0); extra valuations ≤ the chunks in flight at the kill.
 * Figures come from the sandbox's request log (what the service saw). The last line is one JSON object.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, sourceCommand } from '../fixtures/commands';
import { startRedis } from '../fixtures/redis-server';
import { spawnSandbox } from './support/sandbox-process';
import { callFigures, readRequestLog } from './support/request-log';
import { holdingsCsv } from './support/report-run';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const PORTFOLIOS = arg('--portfolios', 10);
const HOLDINGS = arg('--holdings', 600);
const CLIENT_ITEMS = arg('--client-items', 6000);
// 60 calls per 3-second window by default (20 a second): a loaded 2-core machine running the sandbox,
// Redis and seven Node processes serves about 25 a second, so a shorter window measures the machine.
const WINDOW_MS = arg('--window-ms', 3000);
const PER_WINDOW = 60;

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-scale-'));
const logFile = join(dir, 'requests.jsonl');
const accounts = ['baseline', 'clean', 'kill'].map((id) => ({ client_id: `bench-${id}`, client_secret: `${id}-${randomUUID()}`, tier: 'starter' as const, per_minute: PER_WINDOW, per_day: 1_000_000 }));
writeFileSync(join(dir, 'accounts.json'), JSON.stringify(accounts));
writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(PORTFOLIOS, HOLDINGS));
const sandbox = await spawnSandbox(['--minute-ms', String(WINDOW_MS), '--accounts', join(dir, 'accounts.json'), '--log', logFile]);
const redis = await startRedis();
const children: ChildProcess[] = [];

interface Proc {
  child: ChildProcess;
  stderr: string;
  exit: Promise<number | null>;
}

function start(args: string[], account: (typeof accounts)[number]): Proc {
  const env = { ...process.env, SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: account.client_id, SVC_CLIENT_SECRET: account.client_secret, SVC_SANDBOX: '1', SOURCE_DATE_EPOCH: '1790000000' };
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const p: Proc = { child, stderr: '', exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  child.stderr!.on('data', (d: Buffer) => (p.stderr += d.toString()));
  child.stdout!.resume();
  return p;
}

const report = (args: string[], account: (typeof accounts)[number]) => start([...sourceCommand('svc-report'), ...args], account);
const sharedClient = (account: (typeof accounts)[number], prefix: string, shared = true, count = CLIENT_ITEMS) =>
  start(['--import', 'tsx', join(ROOT, 'test/scale-out/support/gate-client.ts'), JSON.stringify({ baseUrl: sandbox.url, clientId: account.client_id, redisUrl: shared ? redis.url : undefined, count, prefix, minuteMs: WINDOW_MS, perMinute: PER_WINDOW, perDay: 1_000_000 })], account);

/** The same machine's ceiling today: one process alone on its own account, its own in-memory gate (no Redis). */
async function baseline(account: (typeof accounts)[number]) {
  const c = sharedClient(account, 'ALONE-', false, 2 * CLIENT_ITEMS);
  const exit = await c.exit;
  const f = callFigures(readRequestLog(logFile), account.client_id, PER_WINDOW, WINDOW_MS);
  return { exit, calls: f.calls, responses_429: f.responses_429, calls_per_window: f.calls_per_window, ratio_of_ceiling: f.ratio_of_ceiling };
}
const valuedSoFar = (clientId: string) => readRequestLog(logFile).filter((l) => l.client_id === clientId && l.status === 200 && l.path.endsWith('/valuations/batch')).reduce((n, l) => n + l.items, 0);

async function scenario(account: (typeof accounts)[number], killOne: boolean) {
  const common = ['--tier', 'starter', '--minute-ms', String(WINDOW_MS), '--redis', redis.url];
  const workers = [0, 1, 2].map(() => report(['worker', ...common, '--lock-ms', '3000'], account));
  await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
    const check = () => (/Worker ready/.test(w.stderr) ? resolve() : setTimeout(check, 50));
    check();
  })));
  const clients = [sharedClient(account, 'HOST-A-'), sharedClient(account, 'HOST-B-')];
  const run = report(['run', join(dir, 'holdings.csv'), '--out', join(dir, `out-${account.client_id}`), '--queue', '--formats', 'json', '--as-of', '2026-10-30', ...common], account);
  let killedAfter: number | undefined;
  if (killOne) {
    while (valuedSoFar(account.client_id) < 250) await new Promise((r) => setTimeout(r, 20));
    // The worker that has a portfolio in hand and has said least about finishing one.
    const victim = workers.find((w) => /Valuing/.test(w.stderr) && !/done:/.test(w.stderr)) ?? workers[0]!;
    victim.child.kill('SIGKILL');
    killedAfter = valuedSoFar(account.client_id);
  }
  const runExit = await run.exit;
  const clientExits = await Promise.all(clients.map((c) => c.exit));
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exit));
  if (runExit !== 0) process.stderr.write(run.stderr.slice(-3000));
  const f = callFigures(readRequestLog(logFile), account.client_id, PER_WINDOW, WINDOW_MS);
  const expected = PORTFOLIOS * HOLDINGS + 2 * CLIENT_ITEMS;
  return {
    run_exit: runExit,
    client_exits: clientExits,
    calls: f.calls,
    responses_429: f.responses_429,
    span_s: f.span_s,
    calls_per_window: f.calls_per_window,
    ratio_of_ceiling: f.ratio_of_ceiling,
    holdings_expected: expected,
    assets_valued: f.assets_valued,
    valued_twice: f.assets_valued - expected,
    ...(killOne ? { killed_after_valued: killedAfter } : {}),
  };
}

try {
  const alone = await baseline(accounts[0]!);
  process.stderr.write(`baseline (one process, no Redis): ${JSON.stringify(alone)}\n`);
  const clean = await scenario(accounts[1]!, false);
  process.stderr.write(`clean: ${JSON.stringify(clean)}\n`);
  const kill = await scenario(accounts[2]!, true);
  process.stderr.write(`kill -9 one worker: ${JSON.stringify(kill)}\n`);
  console.log(JSON.stringify({ bench: 'scale-out', window_ms: WINDOW_MS, per_window: PER_WINDOW, portfolios: PORTFOLIOS, holdings_each: HOLDINGS, client_processes: 2, client_items_each: CLIENT_ITEMS, workers: 3, load_1m: loadavg()[0], baseline: alone, clean, kill, clean_vs_baseline: Math.round((clean.calls_per_window / alone.calls_per_window) * 1000) / 1000 }));
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sandbox.close();
  await redis.stop();
}
