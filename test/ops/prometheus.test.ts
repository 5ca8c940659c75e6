import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { ensureAddinDist } from '../../fixtures/addin-dist';
import { commandArgs } from '../../fixtures/commands';
import { freePort } from '../../fixtures/free-port';
import { hostClient } from '../../fixtures/https-client';
import { startPrometheus, type PrometheusProcess } from '../../fixtures/prometheus-server';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { killSpawned, spawnNode, type Spawned } from '../../fixtures/spawned';
import { selfSignedCert } from '../../fixtures/tls-cert';
import { startSandbox, type LogLine, type RunningSandbox } from '../../src/sandbox';
import { readJsonLines } from './json-lines';

/**
 * Debian's Prometheus scrapes a running add-in host, a running `svc-report worker` and the
 * `svc-report run --queue` of a month-end, all on one account against the sandbox (every
 * process its own, as deployed). Read back through Prometheus's HTTP query API: the calls
 * counted equal the sandbox's request log; the day's budget gauge falls as calls are made;
 * the month-end's series say what happened. Every log line of the three is JSON with the
 * fields named, and none carries the secret or a token.
 */

const SECRET = `prom-${Math.random().toString(36).slice(2)}-secret`;
const CLIENT = 'prom-account';
const QUEUE_SECRET = `prom-queue-${Math.random().toString(36).slice(2)}-secret`;
const MINUTE_MS = 1000;
const PORTFOLIOS = 3;
const HOLDINGS = 120;
const dir = mkdtempSync(join(tmpdir(), 'svc-prom-'));
const logFile = join(dir, 'requests.jsonl');
let sandbox: RunningSandbox;
let redis: RedisProcess;
let prometheus: PrometheusProcess;
const ports = { worker: 0, host: 0, run: 0 };

const serviceEnv = () => ({ SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: CLIENT, SVC_CLIENT_SECRET: SECRET, SVC_SANDBOX: '1', SVC_REDIS_URL: redis.url, SVC_QUEUE_SECRET: QUEUE_SECRET });

/** Collects a process's stdout and stderr apart (spawnNode merges them into `output`). */
function streams(p: Spawned) {
  const s = { stdout: '', stderr: '' };
  p.child.stdout!.on('data', (d: Buffer) => (s.stdout += d.toString()));
  p.child.stderr!.on('data', (d: Buffer) => (s.stderr += d.toString()));
  return s;
}

const sandboxLines = (): LogLine[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, logFile, minuteMs: MINUTE_MS, accounts: [{ client_id: CLIENT, client_secret: SECRET, tier: 'enterprise', per_minute: 200, per_day: 20_000 }] });
  redis = await startRedis();
  ports.worker = await freePort();
  ports.host = await freePort();
  ports.run = await freePort();
  const job = (name: string, port: number) => `  - job_name: ${name}\n    static_configs:\n      - targets: ['127.0.0.1:${port}']\n`;
  prometheus = await startPrometheus(`global:\n  scrape_interval: 200ms\n  scrape_timeout: 150ms\nscrape_configs:\n${job('svc-report-worker', ports.worker)}${job('addin-host', ports.host)}${job('svc-report-run', ports.run)}`);
  await ensureAddinDist();
}, 180_000);

afterAll(async () => {
  killSpawned();
  await prometheus?.stop();
  await sandbox?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A PromQL expression's single value (NaN when it has none). */
async function value(promql: string): Promise<number> {
  const r = await prometheus.query(promql);
  return r.length === 1 ? Number(r[0]!.value[1]) : NaN;
}

describe('Prometheus scraping a host, a worker and a month-end run', () => {
  it('counts the calls the sandbox logged, sees the day budget fall, and the month-end series; every log line is JSON without a secret', async () => {
    const tls = selfSignedCert(dir);
    writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(PORTFOLIOS, HOLDINGS));
    const worker = spawnNode([...commandArgs('svc-report'), 'worker', '--out', dir, '--tier', 'enterprise', '--minute-ms', String(MINUTE_MS), '--health-port', String(ports.worker), '--log-format', 'json'], serviceEnv());
    const workerOut = streams(worker);
    const host = spawnNode(commandArgs('addin-serve'), { ...serviceEnv(), SVC_MINUTE_MS: String(MINUTE_MS), ADDIN_PORT: '0', ADDIN_TLS_CERT: tls.cert, ADDIN_TLS_KEY: tls.key, ADDIN_OFFICE_JS: 'local', ADDIN_AUDIT_LOG: join(dir, 'audit.jsonl'), ADDIN_METRICS_PORT: String(ports.host), ADDIN_LOG_FORMAT: 'json' });
    const hostOut = streams(host);
    await worker.said(/Worker ready/);
    const [, hostUrl] = await host.said(/Add-in host on (https:\/\/[^\s(]+)/);
    // Prometheus sees both up before the month-end starts, so the budget's first samples are before its calls.
    const up = async (job: string) => (await value(`up{job="${job}"}`)) === 1;
    while (!((await up('svc-report-worker')) && (await up('addin-host')))) await new Promise((r) => setTimeout(r, 100));
    const startedAt = Date.now() / 1000;

    // A few sheets' cells through the host while the month-end runs: batches with assets in common (the cache's hits).
    const client = hostClient(tls.cert);
    const cells = (from: number) => ({ assets: Array.from({ length: 20 }, (_, i) => ({ segment: 'watches', brand: 'Omega', model: 'Speedmaster', year: 1950 + from + i })) });
    // The run's log format is the default: JSON, since its stderr is not a terminal.
    const run = spawnNode([...commandArgs('svc-report'), 'run', join(dir, 'holdings.csv'), '--out', join(dir, 'out'), '--queue', '--formats', 'json', '--as-of', '2026-10-30', '--tier', 'enterprise', '--minute-ms', String(MINUTE_MS), '--metrics-port', String(ports.run)], { ...serviceEnv(), SVC_LOG_FORMAT: '' });
    const runOut = streams(run);
    // One after the other (each sheet finds the assets the previous ones valued): 20 new, 10 + 10, 10 + 10, 20 cached.
    const sheets = [];
    for (const from of [0, 10, 20, 10]) sheets.push(await client.post(`${hostUrl}/api/v1/valuations/batch`, cells(from)));
    client.close();
    expect(sheets.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    expect(await run.exit, runOut.stderr.slice(-3000)).toBe(0);
    // The run waited for Prometheus's last scrape before exiting: its final figures are there.
    expect(runOut.stderr).toMatch(/Waiting up to \d+ s for Prometheus to scrape the final figures/);

    // Every call any of the three made is a line of the sandbox's log, and the other way round.
    const counted = async () => value('sum(last_over_time(svc_upstream_calls_total[5m]))');
    let logged = sandboxLines().length;
    let seen = await counted();
    // The long-lived processes' last calls (a readiness sign-in) reach Prometheus at its next scrape.
    for (let i = 0; i < 100 && seen !== logged; i++) {
      await new Promise((r) => setTimeout(r, 200));
      logged = sandboxLines().length;
      seen = await counted();
    }
    expect(seen).toBe(logged);
    expect(logged).toBeGreaterThan(PORTFOLIOS * Math.ceil(HOLDINGS / 50) * 2);
    expect(await value('sum(last_over_time(svc_upstream_rate_limited_total[5m])) or vector(0)')).toBe(sandboxLines().filter((l) => l.status === 429).length);
    // Each process counted its own: the worker valued the portfolios, the host its sheets, the run its pre-check.
    for (const job of ['svc-report-worker', 'addin-host', 'svc-report-run']) expect(await value(`sum(last_over_time(svc_upstream_calls_total{job="${job}",operation!~"createToken|refreshToken"}[5m]))`)).toBeGreaterThan(0);

    // The day's budget, as the worker saw it, fell as the month-end's calls were made.
    const endedAt = Date.now() / 1000;
    const [day] = await prometheus.queryRange('svc_rate_remaining{job="svc-report-worker",window="day"}', startedAt, endedAt, 0.2);
    const budget = day!.values.map(([, v]) => Number(v));
    expect(budget.at(-1)!).toBeLessThan(budget[0]!);
    expect(budget.at(-1)!).toBeLessThanOrEqual(20_000 - sandboxLines().filter((l) => l.client_id === CLIENT && l.status === 200).length + 10);
    for (let i = 1; i < budget.length; i++) expect(budget[i]!).toBeLessThanOrEqual(budget[i - 1]!);

    // What the month-end did, in its own series.
    expect(await value('sum(last_over_time(svc_report_portfolios{state="done"}[5m]))')).toBe(2 * PORTFOLIOS); // the worker's and the run's view
    expect(await value('sum(last_over_time(svc_report_files_written_total{format="json"}[5m]))')).toBe(PORTFOLIOS + 1); // the worker's three, the run's consolidated one
    expect(await value('sum(last_over_time(svc_report_chunks_journaled_total{job="svc-report-worker",phase="valuations"}[5m]))')).toBe(PORTFOLIOS * Math.ceil(HOLDINGS / 50));
    expect(await value('svc_ready{job="svc-report-worker",check="redis"}')).toBe(1);
    expect(await value('svc_report_queue_jobs{job="svc-report-worker",state="active"}')).toBe(0);
    // The host: cells asked, items answered from its cache, and items per upstream call.
    expect(await value('addin_cells_requested_total{job="addin-host"}')).toBe(80);
    expect(await value('addin_cache_hits_total{job="addin-host",kind="item"}')).toBe(40);
    expect(await value('addin_cache_misses_total{job="addin-host",kind="item"}')).toBe(40);
    expect(await value('addin_cells_per_upstream_call_count{job="addin-host"}')).toBe(3);
    expect(await value('addin_cells_per_upstream_call_sum{job="addin-host"}')).toBe(40);

    worker.child.kill('SIGTERM');
    host.child.kill('SIGTERM');
    expect(await worker.exit).toBe(0);
    expect(await host.exit).toBe(0);

    // The logs: JSON lines with level, time, component and message; requests name their user and the service's request id.
    const runLog = readJsonLines(runOut.stderr);
    expect(runLog.every((l) => l.component === 'svc-report')).toBe(true);
    expect(runOut.stdout.trim().split('\n').every((f) => f.startsWith(join(dir, 'out')))).toBe(true);
    const workerLog = readJsonLines(workerOut.stderr);
    expect(workerLog.every((l) => l.component === 'svc-report-worker')).toBe(true);
    expect(workerOut.stdout).toBe('');
    const hostLog = readJsonLines(hostOut.stdout);
    expect(hostOut.stderr).toBe('');
    // Three sheets went upstream (info lines with the service's request id); the fourth repeats the second: a cache hit, a debug line.
    const batches = hostLog.filter((l) => l.operation === 'batchValuations');
    expect(batches).toHaveLength(3);
    for (const b of batches) expect(b).toMatchObject({ level: 'info', component: 'addin-host', user: 'address:127.0.0.1', status: 200, source: 'upstream', request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/) });
    const everything = [runOut, workerOut, hostOut].map((s) => s.stdout + s.stderr).join('\n');
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toMatch(/eyJ[A-Za-z0-9_-]+\./); // no token (a JWT's header)
    expect(everything).not.toMatch(/Bearer [A-Za-z0-9]/);
  }, 300_000);
});
