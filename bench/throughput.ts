/**
 * Client throughput against the sandbox with Starter limits and a one-second "minute"
 * (60 requests a second, so at most 60 × 50 = 3,000 assets a window).
 *
 *   npx tsx bench/throughput.ts [--assets 15000] [--in-process]
 *
 * Runs, one after the other on separate Starter accounts of one sandbox:
 *   client     ServiceClient.valueAll (paced by the shared rate gate)
 *   sequential one valuation per request, one request at a time (the naive loop), for 3 s
 *   plimit     batches of 50 through p-limit(8), no limiter, honouring Retry-After on 429
 *   report     the whole `svc-report run` (valuations, scores, the enrichment a Starter tier
 *              may not call) of one portfolio of --report-holdings (default 15,000) holdings, in
 *              its own process: every call it makes per window ÷ the ceiling of 60 calls
 * and the gzip size of the browser bundle of the client with its schemas. Figures come from
 * the sandbox's request log (what the service saw). The last line is one JSON object.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import pLimit from 'p-limit';
import { ServiceClient } from '../src/client';
import { startSandbox, type LogLine } from '../src/sandbox';
import { MAX_BATCH, TIERS, type ValuationRequest } from '../src/wire';
import { buildBrowserClient } from '../fixtures/browser-bundle';
import { spawnSandbox } from './support/sandbox-process';
import { callFigures } from './support/request-log';
import { holdingsCsv, runReportCommand } from './support/report-run';

const WINDOW_MS = 1000;
const argAssets = process.argv.indexOf('--assets');
const ASSETS = argAssets > 0 ? Number(process.argv[argAssets + 1]) : 15_000;
const CEILING = TIERS.starter.perMinute * MAX_BATCH;

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const logFile = join(dir, 'requests.jsonl');
// Throwaway accounts on a local sandbox; secrets made per run so none is written in code.
const secret = (id: string) => `${id}-${randomUUID()}`;
const argReport = process.argv.indexOf('--report-holdings');
const REPORT_HOLDINGS = argReport > 0 ? Number(process.argv[argReport + 1]) : 15_000;
const accounts = ['bench-client', 'bench-sequential', 'bench-plimit', 'bench-report'].map((id) => ({ client_id: id, client_secret: secret(id), tier: 'starter' as const }));
const secretOf = (id: string) => accounts.find((a) => a.client_id === id)!.client_secret;
const sb = await startService();

/**
 * The sandbox runs in its own process (the svc-sandbox CLI), as the service would: sharing
 * this event loop would make the client's timers wait on the service's work. `--in-process`
 * uses startSandbox() here instead.
 */
async function startService(): Promise<{ url: string; close(): Promise<void> }> {
  if (process.argv.includes('--in-process')) return startSandbox({ port: 0, quiet: true, minuteMs: WINDOW_MS, logFile, accounts });
  const accountsFile = join(dir, 'accounts.json');
  writeFileSync(accountsFile, JSON.stringify(accounts));
  return spawnSandbox(['--minute-ms', String(WINDOW_MS), '--accounts', accountsFile, '--log', logFile]);
}

const assets: ValuationRequest[] = Array.from({ length: ASSETS }, (_, i) => ({
  segment: 'watches',
  brand: ['Rolex', 'Omega', 'Cartier', 'Patek Philippe'][i % 4]!,
  model: `Model ${i % 23}`,
  reference: `BX${i}`,
}));

const readLog = (): LogLine[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);

/** What the service saw of one account's valuation calls: assets valued, 429s, assets per window. */
function figures(clientId: string, elapsedMs: number) {
  const lines = readLog().filter((l) => l.client_id === clientId && l.path.startsWith('/v1/valuations'));
  const ok = lines.filter((l) => l.status === 200);
  const valued = ok.reduce((n, l) => n + Math.max(1, l.items), 0);
  const perWindow = new Map<number, number>();
  for (const l of ok) {
    const w = Math.floor(Date.parse(l.t) / WINDOW_MS);
    perWindow.set(w, (perWindow.get(w) ?? 0) + Math.max(1, l.items));
  }
  const inner = [...perWindow.entries()].sort((a, b) => a[0] - b[0]).slice(1, -1).map(([, n]) => n);
  const steady = inner.length ? inner.reduce((a, b) => a + b, 0) / inner.length : NaN;
  const perWindowOverall = valued / (elapsedMs / WINDOW_MS);
  return {
    assets_valued: valued,
    requests: lines.length,
    responses_429: lines.filter((l) => l.status === 429).length,
    elapsed_ms: Math.round(elapsedMs),
    assets_per_window: Math.round(perWindowOverall),
    ratio_of_ceiling: round3(perWindowOverall / CEILING),
    // Whole windows between the first and the last (the log's times are response times, so ±1-2 requests a window).
    steady_assets_per_window: Math.round(steady),
    steady_ratio_of_ceiling: round3(steady / CEILING),
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
// Lets the sandbox finish writing its log before it is read.
const settle = () => new Promise((r) => setTimeout(r, 150));

// 1. The client: valueAll paced by the gate.
const client = new ServiceClient({ baseUrl: sb.url, clientId: 'bench-client', clientSecret: secretOf('bench-client'), tier: 'starter', limits: { minuteMs: WINDOW_MS } });
await client.segments.list(); // token and first contact outside the timed run
await settle();
let t0 = performance.now();
const out = await client.valueAll(assets);
const clientMs = performance.now() - t0;
await settle();
const clientFigures = { ...figures('bench-client', clientMs), failed_items: out.filter((o) => !o.ok).length };
console.error('client', clientFigures);

// 2. Baseline: one valuation per request, sequentially, for three windows.
const seq = new ServiceClient({ baseUrl: sb.url, clientId: 'bench-sequential', clientSecret: secretOf('bench-sequential'), tier: 'starter', limits: { minuteMs: WINDOW_MS } });
await seq.segments.list();
await settle();
t0 = performance.now();
let i = 0;
while (performance.now() - t0 < 3 * WINDOW_MS) await seq.valuations.create(assets[i++ % assets.length]!);
const seqMs = performance.now() - t0;
await settle();
const sequentialFigures = figures('bench-sequential', seqMs);
console.error('sequential', sequentialFigures);

// 3. Baseline: p-limit, no limiter; a 429 waits its Retry-After and tries again.
const tokenRes = await fetch(`${sb.url}/auth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ client_id: 'bench-plimit', client_secret: secretOf('bench-plimit'), grant_type: 'client_credentials' }),
});
const { access_token } = (await tokenRes.json()) as { access_token: string };
const limit = pLimit(8);
let retries = 0;
const chunks: ValuationRequest[][] = [];
for (let k = 0; k < assets.length; k += MAX_BATCH) chunks.push(assets.slice(k, k + MAX_BATCH));
t0 = performance.now();
await Promise.all(
  chunks.map((chunk) =>
    limit(async () => {
      for (;;) {
        const res = await fetch(`${sb.url}/valuations/batch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
          body: JSON.stringify({ assets: chunk }),
        });
        await res.arrayBuffer();
        if (res.status !== 429) return;
        retries++;
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
      }
    }),
  ),
);
const plimitMs = performance.now() - t0;
await settle();
const plimitFigures = { ...figures('bench-plimit', plimitMs), retries };
console.error('plimit', plimitFigures);

// 4. The report job: the whole run in its own process, every call it makes counted.
const holdingsFile = join(dir, 'report-holdings.csv');
writeFileSync(holdingsFile, holdingsCsv(1, REPORT_HOLDINGS));
const report = await runReportCommand(
  ['run', holdingsFile, '--out', join(dir, 'report-out'), '--formats', 'json', '--tier', 'starter', '--minute-ms', String(WINDOW_MS)],
  { SVC_BASE_URL: sb.url, SVC_CLIENT_ID: 'bench-report', SVC_CLIENT_SECRET: secretOf('bench-report') },
);
await settle();
const reportCalls = callFigures(readLog(), 'bench-report', TIERS.starter.perMinute, WINDOW_MS);
const reportFigures = {
  holdings: REPORT_HOLDINGS,
  ...reportCalls,
  exit_code: report.exit_code,
  wall_s: round3(report.seconds),
  // The report process's CPU (user + system): near span_s, the process needed a whole core and was CPU-bound on a loaded machine.
  cpu_s: report.cpu_s,
  every_holding_valued_once: reportCalls.assets_valued === REPORT_HOLDINGS,
};
console.error('report', reportFigures);

await sb.close();

const bundle = await buildBrowserClient();
// Baseline: zod alone (classic API, one schema) bundled the same way: most of the client's weight.
const zodOnly = await build({
  stdin: { contents: "import { z } from 'zod'; (globalThis as any).check = z.object({ a: z.string() });", loader: 'ts', resolveDir: fileURLToPath(new URL('..', import.meta.url)) },
  bundle: true,
  platform: 'browser',
  format: 'iife',
  minify: true,
  write: false,
  logLevel: 'silent',
});
const gz = (text: string) => gzipSync(text, { level: 9 }).length;
const bundleFigures = {
  minified_bytes: Buffer.byteLength(bundle),
  gzip_bytes: gz(bundle),
  zod_alone_gzip_bytes: gz(zodOnly.outputFiles[0]!.text),
};
console.error('bundle', bundleFigures);

console.log(
  JSON.stringify({
    bench: 'client-throughput',
    limits: { per_window: TIERS.starter.perMinute, window_ms: WINDOW_MS, ceiling_assets_per_window: CEILING },
    assets: ASSETS,
    client: clientFigures,
    baseline_sequential_single: sequentialFigures,
    baseline_plimit_no_limiter: plimitFigures,
    report_run: reportFigures,
    browser_bundle: bundleFigures,
    goal_met: clientFigures.ratio_of_ceiling >= 0.97 && clientFigures.responses_429 === 0,
    report_goal_met: reportFigures.ratio_of_ceiling >= 0.97 && reportFigures.responses_429 === 0 && reportFigures.every_holding_valued_once,
    load_average_1m: Math.round(loadavg()[0]! * 100) / 100,
  }),
);
