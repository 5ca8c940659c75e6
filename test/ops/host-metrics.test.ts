import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE, DEPLOYMENT_KEY_HEADER } from '../../addin/src/shared/host-connection';
import { startSandbox, type LogLine, type RunningSandbox } from '../../src/sandbox';

/**
 * The add-in host's series, read from its exposition after traffic against a sandbox that
 * answers some calls 429: each figure against what the sandbox logged or what was sent.
 */

const KEY = 'metrics-key-4a1f';
/** Small batches after the three sheets: more calls, some meeting a 429 first. */
const SMALL = 6;
const SECRET = `metrics-${Math.random().toString(36).slice(2)}`;
const dir = mkdtempSync(join(tmpdir(), 'svc-host-metrics-'));
const logFile = join(dir, 'requests.jsonl');
let sandbox: RunningSandbox;
let host: RunningAddinHost;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, logFile, faults: 'r429=0.3', seed: 7, accounts: [{ client_id: 'metrics-account', client_secret: SECRET, tier: 'pro', per_minute: 100_000, per_day: 5_000 }] });
  host = await startAddinHost({ port: 0, insecureHttp: true, officeJs: 'local', deploymentKey: KEY, service: { baseUrl: sandbox.url, clientId: 'metrics-account', clientSecret: SECRET } });
});

afterAll(async () => {
  await host?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const headers = (key = KEY) => ({ 'content-type': 'application/json', [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: key });
const sheet = (from: number, n: number) => ({ assets: Array.from({ length: n }, (_, i) => ({ segment: 'wine', brand: 'Château Margaux', model: 'Grand Vin', year: 1900 + from + i })) });
const post = (body: unknown, key?: string) => fetch(`${host.url}/api/v1/valuations/batch`, { method: 'POST', headers: headers(key), body: JSON.stringify(body) });

/** One sample's value from the exposition (NaN when absent). */
async function sample(series: string): Promise<number> {
  const { body } = await host.metrics.exposition();
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : NaN;
}

describe("the add-in host's metrics", () => {
  it('count calls, 429s, sign-ins, cells, cache hits and misses, items per call, waits and the budget as the sandbox saw them', async () => {
    expect((await post(sheet(0, 10))).status).toBe(200);
    expect((await post(sheet(5, 10))).status).toBe(200); // 5 cached, 5 new
    expect((await post(sheet(0, 10))).status).toBe(200); // all cached
    for (let i = 0; i < SMALL; i++) expect((await post(sheet(30 + 2 * i, 2))).status).toBe(200); // more calls, some meeting a 429 first
    expect((await post(sheet(0, 1), 'wrong-key-000')).status).toBe(403);

    // A first scrape: its readiness gauge signs in once (the service check), a call the sandbox logs too.
    await host.metrics.exposition();
    const log = readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogLine);
    const batchLines = log.filter((l) => l.path === '/v1/valuations/batch');
    const answered = batchLines.filter((l) => l.status === 200).length;
    const refused = batchLines.filter((l) => l.status === 429).length;
    expect(refused).toBeGreaterThan(0); // the seed makes some
    expect(await sample('svc_upstream_calls_total{operation="batchValuations",status="200"}')).toBe(answered);
    expect(await sample('svc_upstream_calls_total{operation="batchValuations",status="429"}')).toBe(refused);
    expect(await sample('svc_upstream_rate_limited_total{operation="batchValuations"}')).toBe(refused);
    const signIns = log.filter((l) => l.path === '/v1/auth/token').length;
    expect(signIns).toBeGreaterThan(0);
    expect(await sample('svc_upstream_calls_total{operation="createToken",status="200"}')).toBe(signIns);
    expect(await sample('svc_service_sign_ins_total{result="accepted",reason="issued"}')).toBe(signIns);
    expect(await sample('svc_upstream_round_trip_seconds_count{operation="batchValuations"}')).toBe(answered + refused);
    // Each slot granted by the account's gate went to a user's waiting call (a retry after a 429 waits again).
    expect(await sample('addin_fair_share_wait_seconds_count')).toBe(answered + refused);

    expect(await sample('addin_cells_requested_total')).toBe(10 + 10 + 10 + SMALL * 2);
    expect(await sample('addin_cache_hits_total{kind="item"}')).toBe(5 + 10);
    expect(await sample('addin_cache_misses_total{kind="item"}')).toBe(10 + 5 + SMALL * 2);
    expect(await sample('addin_cells_per_upstream_call_count')).toBe(answered);
    expect(await sample('addin_cells_per_upstream_call_sum')).toBe(10 + 5 + SMALL * 2);
    expect(await sample('addin_user_sign_ins_total{result="accepted",reason="key"}')).toBe(3 + SMALL);
    expect(await sample('addin_user_sign_ins_total{result="refused",reason="deployment_key_required"}')).toBe(1);
    expect(await sample('addin_http_requests_total{route="api",status="200"}')).toBe(3 + SMALL);
    expect(await sample('addin_http_requests_total{route="api",status="403"}')).toBe(1);
    expect(await sample('addin_http_requests_in_flight')).toBe(0);

    // The budget: the day's limit and what is left of it after the calls the service counted (a 429 counts nothing).
    expect(await sample('svc_rate_limit{window="day"}')).toBe(5_000);
    expect(await sample('svc_rate_remaining{window="day"}')).toBe(5_000 - answered);
    expect(await sample('svc_rate_pace_calls_per_minute')).toBeGreaterThan(0);
    expect(await sample('process_cpu_seconds_total')).toBeGreaterThan(0);
  });
});
