/**
 * Throughput of the sandbox on POST /valuations/batch (50 distinct assets per call), against a
 * bare node:http server answering a pre-serialised body of the same size, driven the same way in
 * the same run. Both servers run as child processes; this process only drives them.
 *
 *   npx tsx bench/sandbox.ts [--seconds 4] [--connections 8]
 *
 * Prints one JSON line last: {batch_calls_per_s, assets_per_s, baseline_calls_per_s, ratio, ...}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEGMENTS, type ValuationRequest } from '../src/wire';
import { sourceCommand } from '../fixtures/commands';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('--seconds', 4);
const CONNECTIONS = arg('--connections', 8);
const WARMUP_MS = 700;
const ROOT = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));

const BRANDS: Record<string, [string, string][]> = {
  watches: [['Rolex', 'Submariner'], ['Patek Philippe', 'Nautilus'], ['Audemars Piguet', 'Royal Oak'], ['Omega', 'Speedmaster'], ['Cartier', 'Tank']],
  art: [['Banksy', 'Girl with Balloon'], ['Kaws', 'Companion'], ['Hockney', 'Pool'], ['Richter', 'Abstraktes Bild'], ['Basquiat', 'Untitled']],
  wine: [['Petrus', 'Pomerol'], ['Romanee-Conti', 'Grand Cru'], ['Lafite', 'Pauillac'], ['Margaux', 'Premier Cru'], ['Latour', 'Pauillac']],
};

/** 50 distinct assets across segments (distinct references, so no two are the same asset). */
function batchAssets(): ValuationRequest[] {
  const out: ValuationRequest[] = [];
  for (let i = 0; out.length < 50; i++) {
    const seg = SEGMENTS[i % SEGMENTS.length]!.id;
    const pairs = BRANDS[seg] ?? [['Maison', 'Model']];
    const [brand, model] = pairs[i % pairs.length]!;
    out.push({ segment: seg, brand, model, reference: `R${1000 + i}`, year: 1990 + (i % 30), condition: 'excellent' });
  }
  return out;
}

function waitForUrl(child: ChildProcess, label: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${label} exited early (${code})`)));
  });
}

interface Drive {
  calls: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

/** CONNECTIONS keep-alive loops posting `body`; counts completed 200s after a warm-up. */
async function drive(url: string, body: string, headers: Record<string, string>): Promise<Drive> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const target = new URL(url);
  const payload = Buffer.from(body);
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': payload.length } },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const start = performance.now();
  const measureFrom = start + WARMUP_MS;
  const end = measureFrom + SECONDS * 1000;
  const result: Drive = { calls: 0, errors: 0, seconds: SECONDS, latenciesMs: [] };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const status = await post().catch(() => 0);
        const t1 = performance.now();
        if (t0 < measureFrom || t1 > end) continue;
        if (status === 200) {
          result.calls++;
          result.latenciesMs.push(t1 - t0);
        } else result.errors++;
      }
    }),
  );
  agent.destroy();
  return result;
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
}

async function main() {
  const accountsFile = join(work, 'accounts.json');
  writeFileSync(accountsFile, JSON.stringify([{ client_id: 'bench', client_secret: 'bench-secret', tier: 'enterprise', per_minute: 1_000_000_000, per_day: 1_000_000_000 }]));
  const children: ChildProcess[] = [];
  try {
    const sandbox = spawn(process.execPath, [...sourceCommand('svc-sandbox'), '--port', '0', '--accounts', accountsFile, '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(sandbox);
    const url = await waitForUrl(sandbox, 'sandbox');
    const tokenRes = await fetch(`${url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'bench', client_secret: 'bench-secret', grant_type: 'client_credentials' }),
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${access_token}` };
    const body = JSON.stringify({ assets: batchAssets() });

    const sample = await fetch(`${url}/valuations/batch`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body });
    const sampleText = await sample.text();
    if (sample.status !== 200) throw new Error(`sample batch answered ${sample.status}: ${sampleText.slice(0, 300)}`);
    const sampleJson = JSON.parse(sampleText) as { count: number };
    if (sampleJson.count !== 50) throw new Error(`sample batch returned ${sampleJson.count} items`);

    const sandboxRun = await drive(`${url}/valuations/batch`, body, auth);
    sandbox.kill('SIGTERM');

    // Baseline: the cheapest possible server answering the same bytes.
    const responseFile = join(work, 'response.json');
    writeFileSync(responseFile, sampleText);
    const bareScript = `
      const http = require('node:http');
      const body = require('node:fs').readFileSync(process.argv[1]);
      const server = http.createServer({ keepAlive: true }, (req, res) => {
        req.on('data', () => {});
        req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }); res.end(body); });
      });
      server.keepAliveTimeout = 65000;
      server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/v1'));`;
    const bare = spawn(process.execPath, ['-e', bareScript, responseFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(bare);
    const bareUrl = await waitForUrl(bare, 'baseline server');
    const baselineRun = await drive(`${bareUrl}/valuations/batch`, body, auth);
    bare.kill('SIGTERM');

    const batchPerS = sandboxRun.calls / SECONDS;
    const basePerS = baselineRun.calls / SECONDS;
    console.log(
      JSON.stringify({
        batch_calls_per_s: Math.round(batchPerS),
        assets_per_s: Math.round(batchPerS * 50),
        baseline_calls_per_s: Math.round(basePerS),
        ratio: Math.round((batchPerS / basePerS) * 1000) / 1000,
        goal_calls_per_s: 500,
        meets_goal: batchPerS >= 500,
        p50_ms: percentile(sandboxRun.latenciesMs, 50),
        p99_ms: percentile(sandboxRun.latenciesMs, 99),
        baseline_p50_ms: percentile(baselineRun.latenciesMs, 50),
        errors: sandboxRun.errors,
        baseline_errors: baselineRun.errors,
        connections: CONNECTIONS,
        seconds: SECONDS,
        response_bytes: Buffer.byteLength(sampleText),
        request_bytes: Buffer.byteLength(body),
      }),
    );
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  }
}

await main();
