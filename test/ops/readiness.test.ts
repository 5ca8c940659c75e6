import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { openSharedAccount, type SharedAccount } from '../../addin/server/shared-account';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE, DEPLOYMENT_KEY_HEADER } from '../../addin/src/shared/host-connection';
import { startOpsServer } from '../../src/ops';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { startSandbox, type LogLine, type RunningSandbox } from '../../src/sandbox';

/**
 * /healthz and /readyz on the add-in host, against a real sandbox and a real redis-server:
 * readiness follows the service (stopped, started, credentials refused) and Redis (stopped,
 * started) while health stays up; neither needs the add-in's header or a sign-in, and
 * neither spends a call of the account's budget.
 */

const SECRET = `ready-${Math.random().toString(36).slice(2)}-secret`;
const KEY = 'ready-deployment-key-5b1c';
const dir = mkdtempSync(join(tmpdir(), 'svc-ready-'));
const logFile = join(dir, 'requests.jsonl');
const account = (secret: string) => [{ client_id: 'ready-account', client_secret: secret, tier: 'pro' as const }];
let sandbox: RunningSandbox;
let port: number;
let redis: RedisProcess;
let shared: SharedAccount;
let host: RunningAddinHost;

const service = () => ({ baseUrl: `http://127.0.0.1:${port}/v1`, clientId: 'ready-account', clientSecret: SECRET, tier: 'pro' as const });
const startService = async (secret = SECRET) => {
  sandbox = await startSandbox({ port, quiet: true, logFile, accounts: account(secret) });
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, logFile, accounts: account(SECRET) });
  port = Number(new URL(sandbox.url).port);
  redis = await startRedis();
  shared = await openSharedAccount(redis.url, service(), () => {});
  // A deployment key guards every product route; the probes must not need it. Answers are kept 150 ms.
  host = await startAddinHost({ port: 0, insecureHttp: true, officeJs: 'local', service: service(), deploymentKey: KEY, shared, readinessCheckMs: 150 });
}, 60_000);

afterAll(async () => {
  await host?.close();
  await shared?.close();
  await sandbox?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The host's probes as its operator asks them: with the add-in's header and the deployment key, /readyz names each dependency (issue 35). */
const AUTHORISED = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: KEY };
async function probe(path: '/healthz' | '/readyz', headers: Record<string, string> = AUTHORISED): Promise<{ status: number; text: string; body: Record<string, unknown> }> {
  const res = await fetch(host.url + path, { headers });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

/** Asks /readyz until it answers `status` (each answer is kept 150 ms), checking /healthz stays 200 meanwhile. */
async function readyzBecomes(status: 200 | 503) {
  for (;;) {
    const r = await probe('/readyz');
    expect((await probe('/healthz')).status).toBe(200);
    if (r.status === status) return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What /readyz said was wrong with one dependency. */
const problem = (r: { body: Record<string, unknown> }, name: string): string | undefined => (r.body.checks as Record<string, { problem?: string } | undefined>)[name]?.problem;

const sandboxLog = (): LogLine[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);

describe('health and readiness of the add-in host', () => {
  it('answer without the add-in header, a sign-in or the deployment key, which the product routes still require', async () => {
    const health = await probe('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await probe('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ ready: true, not_ready: [], checks: { service: { ok: true }, redis: { ok: true } } });
    const api = await fetch(`${host.url}/api/v1/segments`, { headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE } });
    expect(api.status).toBe(403);
  });

  it("/readyz names dependencies and their addresses only to an authorised caller or on the metrics listener; anyone else gets the bare status (issue 35)", async () => {
    for (const headers of [{} as Record<string, string>, { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE }, { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: 'ready-deployment-key-wrong' }, { [DEPLOYMENT_KEY_HEADER]: KEY }]) {
      const bare = await probe('/readyz', headers);
      expect(bare.status).toBe(200);
      expect(bare.body).toEqual({ ready: true });
      expect(bare.text).not.toMatch(/redis|127\.0\.0\.1|service/);
    }
    expect((await probe('/readyz')).body).toMatchObject({ checks: { redis: { ok: true } } });
    // The host's metrics listener (ADDIN_METRICS_PORT) is for the firm's monitoring: the whole report.
    const ops = await startOpsServer({ metrics: host.metrics, readiness: host.readiness }, { port: 0 });
    try {
      expect(await (await fetch(`${ops.url}/readyz`)).json()).toMatchObject({ ready: true, checks: { service: { ok: true }, redis: { ok: true } } });
    } finally {
      await ops.close();
    }
  });

  it('the service stopped: not ready, naming the service; started again: ready; health up throughout', async () => {
    await readyzBecomes(200);
    await sandbox.close();
    const down = await readyzBecomes(503);
    expect(down.body).toMatchObject({ ready: false, not_ready: ['service'], checks: { service: { ok: false }, redis: { ok: true } } });
    expect(problem(down, 'service')).toMatch(/cannot sign in to the service: .*refused the connection/);
    const metrics = await host.metrics.exposition();
    expect(metrics.body).toMatch(/^svc_ready\{check="service"\} 0$/m);
    await startService();
    const up = await readyzBecomes(200);
    expect(up.body).toMatchObject({ ready: true, not_ready: [] });
    expect((await host.metrics.exposition()).body).toMatch(/^svc_ready\{check="service"\} 1$/m);
  }, 60_000);

  it("the service refusing the host's credentials (revoked): not ready, saying so, and no secret in the body", async () => {
    await sandbox.close();
    await startService('the-secret-was-rotated');
    const refused = await readyzBecomes(503);
    expect(problem(refused, 'service')).toMatch(/the service refused this process's credentials \(SVC_CLIENT_ID \/ SVC_CLIENT_SECRET\)/);
    expect(refused.text).not.toContain(SECRET);
    expect(refused.text).not.toContain(KEY);
    await sandbox.close();
    await startService();
    await readyzBecomes(200);
  }, 60_000);

  it('Redis stopped: not ready, naming Redis; started again: ready; health up throughout', async () => {
    await readyzBecomes(200);
    await redis.stop();
    const down = await readyzBecomes(503);
    expect(down.body).toMatchObject({ ready: false, not_ready: ['redis'], checks: { service: { ok: true }, redis: { ok: false } } });
    expect(problem(down, 'redis')).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer/);
    await redis.restart();
    await readyzBecomes(200);
  }, 60_000);

  it("spends none of the account's budget: many probes within the check's minute are one sign-in, and no API call", async () => {
    const quiet = await startAddinHost({ port: 0, insecureHttp: true, officeJs: 'local', service: service() });
    try {
      const before = sandboxLog().length;
      const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${quiet.url}/readyz`).then((r) => r.status)));
      for (let i = 0; i < 20; i++) answers.push((await fetch(`${quiet.url}/readyz`)).status);
      expect(answers.every((s) => s === 200)).toBe(true);
      const made = sandboxLog().slice(before);
      expect(made.map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual(['POST /v1/auth/token 200']);
    } finally {
      await quiet.close();
    }
  });
});
