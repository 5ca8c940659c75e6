import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAddinDist } from '../../fixtures/addin-dist';
import { commandArgs } from '../../fixtures/commands';
import { hostClient, type HostAnswer } from '../../fixtures/https-client';
import { killSpawned, spawnNode, type Spawned } from '../../fixtures/spawned';
import { selfSignedCert } from '../../fixtures/tls-cert';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { readJsonLines } from './json-lines';
import { startCli } from '../reports/helpers';

/**
 * SIGTERM to real processes. The host, started as `addin:serve`, during 200 concurrent cell
 * requests: each one answered (or, arriving after the signal, refused with a 503 or a refused
 * connection), none cut, exit 0; at the bound, what is left is answered 503, never cut. A
 * `run` drains as on Ctrl-C.
 */

const SECRET = `drain-${Math.random().toString(36).slice(2)}-secret`;
const CELLS = 200;
const dir = mkdtempSync(join(tmpdir(), 'svc-drain-'));
let tls: { cert: string; key: string };
const sandboxes: RunningSandbox[] = [];

/** A sandbox whose answers take `latency` ms, with an account whose limits never hold a call back. */
async function slowService(latency: string): Promise<RunningSandbox> {
  const sb = await startSandbox({ port: 0, quiet: true, faults: `latency=${latency}`, accounts: [{ client_id: 'drain-account', client_secret: SECRET, tier: 'enterprise', per_minute: 100_000, per_day: 1_000_000 }] });
  sandboxes.push(sb);
  return sb;
}

interface Host {
  proc: Spawned;
  url: string;
  metricsUrl: string;
  /** Everything it wrote on stdout (its log) and stderr. */
  stdout(): string;
  stderr(): string;
}

async function startHost(sb: RunningSandbox, env: Record<string, string> = {}): Promise<Host> {
  const proc = spawnNode(commandArgs('addin-serve'), {
    SVC_BASE_URL: sb.url,
    SVC_CLIENT_ID: 'drain-account',
    SVC_CLIENT_SECRET: SECRET,
    ADDIN_PORT: '0',
    ADDIN_TLS_CERT: tls.cert,
    ADDIN_TLS_KEY: tls.key,
    ADDIN_OFFICE_JS: 'local',
    ADDIN_AUDIT_LOG: join(dir, `audit-${Math.random().toString(36).slice(2)}.jsonl`),
    ADDIN_METRICS_PORT: '0',
    ADDIN_LOG_FORMAT: 'json',
    ...env,
  });
  let out = '';
  let err = '';
  proc.child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const [, url] = await proc.said(/Add-in host on (https:\/\/[^\s(]+)/);
  const [, metricsUrl] = await proc.said(/Metrics for Prometheus on (http:\/\/[^\s]+\/metrics)/);
  return { proc, url: url!, metricsUrl: metricsUrl!, stdout: () => out, stderr: () => err };
}

/** The host's own counts, from its metrics listener: API requests in flight, and API requests received (answered or in flight). */
async function hostCounts(host: Host): Promise<{ inFlight: number; received: number }> {
  const text = await (await fetch(host.metricsUrl)).text();
  const inFlight = Number(/^addin_http_requests_in_flight (\d+)/m.exec(text)?.[1] ?? NaN);
  const answered = [...text.matchAll(/^addin_http_requests_total\{route="api",status="\d+"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  return { inFlight, received: inFlight + answered };
}

async function until(ok: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await ok())) await new Promise((resolve) => setTimeout(resolve, 25));
}

const cell = (i: number) => ({ segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: '126610LN', year: 1900 + i });

beforeAll(async () => {
  tls = selfSignedCert(dir);
  await ensureAddinDist();
}, 180_000);

afterAll(async () => {
  killSpawned();
  for (const sb of sandboxes) await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SIGTERM to the add-in host', () => {
  it(`during ${CELLS} concurrent cell requests: every one answered, late ones refused cleanly, none cut; exit 0; every log line JSON with no secret`, async () => {
    const sb = await slowService('1000-2000');
    const host = await startHost(sb);
    const client = hostClient(tls.cert);
    try {
      const cells = Array.from({ length: CELLS }, (_, i) => client.post(`${host.url}/api/v1/valuations`, cell(i)));
      // All of them received by the host, and some still waiting on the slow service, before the signal.
      let atSignal = 0;
      await until(async () => {
        const c = await hostCounts(host);
        atSignal = c.inFlight;
        return c.received === CELLS && c.inFlight > 0;
      });
      host.proc.child.kill('SIGTERM');
      await host.proc.said(/SIGTERM: stopping/);
      // Arriving after the signal: a 503 naming the restart, or a refused connection; never a cut one.
      const late = await Promise.all(Array.from({ length: 5 }, () => client.post(`${host.url}/api/v1/valuations`, cell(0)).then((a) => a, (e: NodeJS.ErrnoException) => e.code)));
      for (const l of late) {
        if (l === undefined) throw new Error('no outcome');
        if (typeof l === 'string') expect(l).toBe('ECONNREFUSED');
        else expect([l.status, (JSON.parse(l.text) as { error: { type: string } }).error.type]).toEqual([503, 'shutting_down']);
      }
      const answered = await Promise.allSettled(cells);
      const statuses = answered.map((a) => (a.status === 'fulfilled' ? a.value.status : `cut: ${(a.reason as Error).message}`));
      expect(statuses).toEqual(Array(CELLS).fill(200));
      for (const a of answered as PromiseFulfilledResult<HostAnswer>[]) expect(JSON.parse(a.value.text)).toHaveProperty('estimated_value.mid');
      expect(await host.proc.exit).toBe(0);

      const lines = readJsonLines(host.stdout());
      expect(host.stderr()).toBe('');
      const stopped = lines.find((l) => /^Stopped:/.test(l.msg as string));
      expect(stopped).toMatchObject({ level: 'info', component: 'addin-host', cut_short: 0 });
      // Those in flight at the signal finished after it (a few more may have finished between the count and the signal).
      expect(stopped!.finished).toBeGreaterThan(0);
      expect(stopped!.finished).toBeLessThanOrEqual(atSignal);
      const requests = lines.filter((l) => l.operation === 'createValuation' && l.status === 200);
      expect(requests).toHaveLength(CELLS);
      // The user as the audit log names them (no sign-in here: the caller's address), and the service's request id.
      for (const r of requests) expect(r).toMatchObject({ level: 'info', component: 'addin-host', user: 'address:127.0.0.1', request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/) });
      expect(host.stdout() + host.stderr()).not.toContain(SECRET);
    } finally {
      client.close();
    }
  }, 180_000);

  it('requests still in flight at the bound are answered 503, not cut; exit 0', async () => {
    const sb = await slowService('5000-6000');
    const host = await startHost(sb, { ADDIN_SHUTDOWN_SECONDS: '0.3' });
    const client = hostClient(tls.cert);
    try {
      const cells = Array.from({ length: 20 }, (_, i) => client.post(`${host.url}/api/v1/valuations`, cell(i)));
      await until(async () => (await hostCounts(host)).inFlight === 20);
      host.proc.child.kill('SIGTERM');
      const answered = await Promise.all(cells);
      for (const a of answered) expect([a.status, (JSON.parse(a.text) as { error: { type: string } }).error.type]).toEqual([503, 'shutting_down']);
      expect(await host.proc.exit).toBe(0);
      expect(readJsonLines(host.stdout()).find((l) => /^Stopped:/.test(l.msg as string))).toMatchObject({ finished: 0, cut_short: 20 });
    } finally {
      client.close();
    }
  }, 120_000);
});

describe('SIGTERM to svc-report run', () => {
  it('drains as on Ctrl-C: no new call leaves, the checkpoint is kept, exit 130; its log lines are JSON', async () => {
    const sb = await slowService('200-400');
    const holdings = join(dir, 'holdings.csv');
    writeFileSync(holdings, ['segment,brand,model,reference,year,purchase_price,purchase_date,currency', ...Array.from({ length: 400 }, (_, i) => `watches,Rolex,Submariner Date,126610LN,${1900 + (i % 120)},9000,2020-01-0${1 + (i % 9)},USD`)].join('\n'));
    const out = join(dir, 'run-out');
    const { child, done } = startCli(['run', holdings, '--out', out, '--formats', 'json', '--concurrency', '2', '--log-format', 'json'], { SVC_BASE_URL: sb.url, SVC_CLIENT_ID: 'drain-account', SVC_CLIENT_SECRET: SECRET, SVC_SANDBOX: '1' });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    await until(() => /holdings"/.test(stderr) && /"done":[1-9]/.test(stderr));
    child.kill('SIGTERM');
    const r = await done;
    expect(r.code).toBe(130);
    const lines = readJsonLines(r.stderr);
    expect(lines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^Stopping: cancelling the requests in flight and keeping the checkpoint/));
    expect(lines.at(-1)).toMatchObject({ level: 'warn', component: 'svc-report', msg: expect.stringMatching(/Interrupted\. What was valued is kept in .*--resume/) });
    expect(readFileSync(join(out, '.svc-report-checkpoint.jsonl'), 'utf8').length).toBeGreaterThan(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain(SECRET);
  }, 120_000);
});
