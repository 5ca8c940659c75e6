/**
 * Past one machine (issue 14): 3 `svc-report worker` processes and 2 add-in host processes on
 * ONE Starter-like account (60 calls a window, 3-second windows by default) through a real
 * redis-server, against the sandbox in its own process (its request log decides).
 *
 *   npx tsx bench/scale-out.ts [--portfolios 10] [--holdings 600] [--host-items 6000] [--window-ms 3000] [--latency 150-250]
 *
 * Runs, one after the other, each on a fresh account:
 *   single   `svc-report run` in one process, no Redis: the reference reports, and what one process
 *            alone reaches of the ceiling on this machine today.
 *   clean    `svc-report run --queue` with 3 workers and, at the same time, 2 add-in hosts started
 *            as the CLI starts them (addin/server/cli.ts with SVC_REDIS_URL, over HTTPS), each sent
 *            --host-items distinct assets as the add-in sends them (POST /api/v1/valuations/batch,
 *            50 a batch, 8 batches in flight): zero 429s, every holding valued exactly once,
 *            combined calls per window ÷ the ceiling, reports identical to `single`'s.
 *   kill     the same with one worker kill -9'ed once 250 holdings have been valued.
 *   latency  `clean` against a second sandbox process that adds --latency ms to every answer.
 * Every run has the same SOURCE_DATE_EPOCH. The last line is one JSON object.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, sourceCommand } from '../fixtures/commands';
import { startRedis } from '../fixtures/redis-server';
import { killSpawned, spawnNode, type Spawned } from '../fixtures/spawned';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../addin/src/shared/host-connection';
import { spawnSandbox, type SandboxProcess } from './support/sandbox-process';
import { callFigures, readRequestLog, round } from './support/request-log';
import { holdingsCsv } from './support/report-run';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const PORTFOLIOS = Number(arg('--portfolios', '10'));
const HOLDINGS = Number(arg('--holdings', '600'));
const HOST_ITEMS = Number(arg('--host-items', '6000'));
// 60 calls per 3-second window by default (20 a second): a loaded 2-core machine running the sandbox,
// Redis and eight Node processes serves about 25 a second, so a shorter window measures the machine.
const WINDOW_MS = Number(arg('--window-ms', '3000'));
const LATENCY = arg('--latency', '150-250');
const PER_WINDOW = 60;
const BATCH = 50;
const BATCHES_IN_FLIGHT = 8;
const EPOCH = '1790000000';

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-scale-'));
/** The queue secret the run and its workers share. */
const QUEUE_SECRET = `bench-queue-${process.pid}-${Date.now()}`;
const accounts = ['single', 'clean', 'kill', 'latency'].map((id) => ({ client_id: `bench-${id}`, client_secret: `${id}-${randomUUID()}`, tier: 'starter' as const, per_minute: PER_WINDOW, per_day: 1_000_000 }));
type Account = (typeof accounts)[number];
writeFileSync(join(dir, 'accounts.json'), JSON.stringify(accounts));
writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(PORTFOLIOS, HOLDINGS));
// The hosts serve HTTPS only (Office's rule): a throwaway certificate for 127.0.0.1, trusted by the drivers below.
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
const tlsAgent = new Agent({ ca: readFileSync(join(dir, 'cert.pem')), keepAlive: true, maxSockets: BATCHES_IN_FLIGHT });

const sandboxes = {
  plain: { log: join(dir, 'requests.jsonl'), proc: undefined as SandboxProcess | undefined },
  slow: { log: join(dir, 'requests-latency.jsonl'), proc: undefined as SandboxProcess | undefined },
};
sandboxes.plain.proc = await spawnSandbox(['--minute-ms', String(WINDOW_MS), '--accounts', join(dir, 'accounts.json'), '--log', sandboxes.plain.log]);
sandboxes.slow.proc = await spawnSandbox(['--minute-ms', String(WINDOW_MS), '--accounts', join(dir, 'accounts.json'), '--log', sandboxes.slow.log, '--faults', `latency=${LATENCY}`]);
const redis = await startRedis();
// Built once here: two hosts starting at once would otherwise both build the add-in into the same folder.
if (!existsSync(join(ROOT, 'addin/dist/functions.js'))) execFileSync(process.execPath, sourceCommand('addin-build'), { cwd: ROOT, stdio: 'ignore' });
type Proc = Spawned;
const start = (args: string[], env: NodeJS.ProcessEnv): Proc => spawnNode(args, { SOURCE_DATE_EPOCH: EPOCH, ...env });

const serviceEnv = (sandbox: SandboxProcess, account: Account) => ({ SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: account.client_id, SVC_CLIENT_SECRET: account.client_secret, SVC_SANDBOX: '1', SVC_QUEUE_SECRET: QUEUE_SECRET });
const report = (args: string[], sandbox: SandboxProcess, account: Account) => start([...sourceCommand('svc-report'), ...args], serviceEnv(sandbox, account));
const runArgs = (out: string) => ['run', join(dir, 'holdings.csv'), '--out', join(dir, out), '--formats', 'json', '--as-of', '2026-10-30', '--tier', 'starter', '--minute-ms', String(WINDOW_MS)];

/** An add-in host as `npm run addin:serve` starts it, with SVC_REDIS_URL: its https:// address once it listens. */
async function addinHost(sandbox: SandboxProcess, account: Account, name: string): Promise<Proc & { url: string }> {
  const p = start(sourceCommand('addin-serve'), {
    ...serviceEnv(sandbox, account),
    SVC_TIER: 'starter',
    SVC_MINUTE_MS: String(WINDOW_MS),
    SVC_REDIS_URL: redis.url,
    ADDIN_PORT: '0',
    ADDIN_TLS_CERT: join(dir, 'cert.pem'),
    ADDIN_TLS_KEY: join(dir, 'key.pem'),
    ADDIN_OFFICE_JS: 'local',
    ADDIN_AUDIT_LOG: join(dir, `audit-${account.client_id}-${name}.jsonl`),
  });
  const [, url] = await p.said(/Add-in host on (https:\/\/[^\s(]+)/);
  return { ...p, url: url! };
}

function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(url, { method: 'POST', agent: tlsAgent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as unknown) : undefined }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** The add-in's batch calls to one host: `count` distinct assets, 50 a batch, a few batches in flight. */
async function drive(hostUrl: string, prefix: string, count: number): Promise<{ valued: number; failed: number; statuses: Record<number, number> }> {
  const assets = Array.from({ length: count }, (_, i) => ({ segment: 'watches', brand: 'Rolex', model: 'Submariner', reference: `${prefix}${i}` }));
  const statuses: Record<number, number> = {};
  let valued = 0;
  let next = 0;
  const lane = async () => {
    while (next < assets.length) {
      const batch = assets.slice(next, (next += BATCH));
      const r = await post(`${hostUrl}/api/v1/valuations/batch`, { assets: batch });
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      const answered = r.status === 200 ? (r.json as { valuations: { estimated_value?: unknown }[] }).valuations : [];
      valued += answered.filter((v) => v.estimated_value !== undefined).length;
    }
  };
  await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, lane));
  return { valued, failed: count - valued, statuses };
}

const reportsIn = (out: string) =>
  Object.fromEntries(
    readdirSync(join(dir, out))
      .filter((f) => f.endsWith('.json') && f !== 'manifest.json')
      .map((f) => [f, readFileSync(join(dir, out, f), 'utf8')]),
  );

const valuedSoFar = (log: string, clientId: string) => readRequestLog(log).filter((l) => l.client_id === clientId && l.status === 200 && l.path.endsWith('/valuations/batch')).reduce((n, l) => n + l.items, 0);

/** What the sandbox saw of the account, and where the calls fell short of the ceiling: start-up, tail, or the middle. */
function figures(log: string, account: Account) {
  const f = callFigures(readRequestLog(log), account.client_id, PER_WINDOW, WINDOW_MS);
  return { calls: f.calls, responses_429: f.responses_429, span_s: f.span_s, calls_per_window: f.calls_per_window, ratio_of_ceiling: f.ratio_of_ceiling, steady_ratio_of_ceiling: f.steady_ratio_of_ceiling, assets_valued: f.assets_valued, assets_scored: f.assets_scored, windows: windowProfile(log, account) };
}

/** Calls answered in each window-long stretch from the account's first call: where a shortfall is (start-up, the middle, the tail). */
function windowProfile(log: string, account: Account): number[] {
  const times = readRequestLog(log)
    .filter((l) => l.client_id === account.client_id && !l.path.includes('/auth/'))
    .map((l) => Date.parse(l.t));
  const first = Math.min(...times);
  const counts: number[] = [];
  for (const t of times) {
    const k = Math.floor((t - first) / WINDOW_MS);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return Array.from(counts, (n) => n ?? 0);
}

async function single(account: Account) {
  const run = report(runArgs('single'), sandboxes.plain.proc!, account);
  const exit = await run.exit;
  if (exit !== 0) process.stderr.write(run.output.slice(-3000));
  return { exit, ...figures(sandboxes.plain.log, account) };
}

async function scenario(account: Account, sandboxName: keyof typeof sandboxes, killOne: boolean, reference: Record<string, string>) {
  const { proc: sandbox, log } = sandboxes[sandboxName];
  const common = ['--tier', 'starter', '--minute-ms', String(WINDOW_MS), '--redis', redis.url];
  const workers = [0, 1, 2].map(() => report(['worker', '--out', dir, ...common, '--lock-ms', '3000'], sandbox!, account));
  const hosts = await Promise.all(['a', 'b'].map((n) => addinHost(sandbox!, account, n)));
  await Promise.all(workers.map((w) => w.said(/Worker ready/)));
  const out = `out-${account.client_id}`;
  const run = report([...runArgs(out), '--queue', '--redis', redis.url], sandbox!, account);
  // The hosts' users are already at work when month-end starts (hosts are long-running services):
  // waiting for the run to queue its portfolios left the account's first window to the run's pre-check alone.
  const driven = Promise.all(hosts.map((h, i) => drive(h.url, `HOST-${'AB'[i]}-`, HOST_ITEMS)));
  let killedAfter: number | undefined;
  if (killOne) {
    while (valuedSoFar(log, account.client_id) < 250) await new Promise((r) => setTimeout(r, 20));
    // The worker that has a portfolio in hand and has said least about finishing one.
    const victim = workers.find((w) => /Valuing/.test(w.output) && !/done:/.test(w.output)) ?? workers[0]!;
    victim.child.kill('SIGKILL');
    killedAfter = valuedSoFar(log, account.client_id);
  }
  const runExit = await run.exit;
  const hostResults = await driven;
  for (const p of [...workers, ...hosts]) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await Promise.all([...workers, ...hosts].map((p) => p.exit));
  if (runExit !== 0) process.stderr.write(run.output.slice(-3000));
  const f = figures(log, account);
  const expected = PORTFOLIOS * HOLDINGS + 2 * HOST_ITEMS;
  const mine = reportsIn(out);
  return {
    run_exit: runExit,
    hosts: hostResults,
    ...f,
    holdings_expected: expected,
    valued_twice: f.assets_valued - expected,
    reports_identical_to_single: Object.keys(mine).length === Object.keys(reference).length && Object.entries(reference).every(([k, v]) => mine[k] === v),
    ...(killOne ? { killed_after_valued: killedAfter } : {}),
  };
}

try {
  const alone = await single(accounts[0]!);
  process.stderr.write(`single (one process, no Redis): ${JSON.stringify(alone)}\n`);
  const reference = reportsIn('single');
  const clean = await scenario(accounts[1]!, 'plain', false, reference);
  process.stderr.write(`clean: ${JSON.stringify(clean)}\n`);
  const kill = await scenario(accounts[2]!, 'plain', true, reference);
  process.stderr.write(`kill -9 one worker: ${JSON.stringify(kill)}\n`);
  const latency = await scenario(accounts[3]!, 'slow', false, reference);
  process.stderr.write(`latency ${LATENCY} ms: ${JSON.stringify(latency)}\n`);
  console.log(
    JSON.stringify({
      bench: 'scale-out',
      window_ms: WINDOW_MS,
      per_window: PER_WINDOW,
      portfolios: PORTFOLIOS,
      holdings_each: HOLDINGS,
      workers: 3,
      addin_hosts: 2,
      host_items_each: HOST_ITEMS,
      latency_ms: LATENCY,
      load_1m: round(loadavg()[0]!, 2),
      single: alone,
      clean,
      kill,
      latency,
    }),
  );
} finally {
  killSpawned();
  tlsAgent.destroy();
  await sandboxes.plain.proc?.close();
  await sandboxes.slow.proc?.close();
  await redis.stop();
}
