import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { HostApiCache } from '../../addin/server/api-cache';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { RedisAnswers, type SharedAnswers } from '../../addin/server/redis-cache';
import { openSharedAccount, type SharedAccount } from '../../addin/server/shared-account';
import { startHostReplicas, type HostReplicas } from '../support/host-replicas';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { DEMO_ACCOUNTS, startSandbox, type LogLine, type RunningSandbox } from '../../src/sandbox';

/**
 * Two add-in host replicas on one account with SVC_REDIS_URL: what one paid for, the other
 * answers from Redis (a real redis-server); the sandbox's request log counts what went upstream.
 */

const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
const dir = mkdtempSync(join(tmpdir(), 'svc-shared-cache-'));
const logFile = join(dir, 'requests.jsonl');
let sandbox: RunningSandbox;
let redis: RedisProcess;
let hosts: HostReplicas | undefined;
let replicas: HostReplicas['replicas'] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, logFile });
  redis = await startRedis();
  const service = { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, tier: account.tier };
  hosts = await startHostReplicas(2, redis.url, service, { distDir: dir });
  replicas = hosts.replicas;
}, 60_000);

afterAll(async () => {
  await hosts?.close();
  await sandbox?.close();
  await redis?.stop();
});

async function ask(replica: number, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${replicas[replica]!.host.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, json: await res.json() };
}

const upstream = (suffix: string): LogLine[] =>
  (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.path.endsWith(suffix));

describe('add-in host replicas sharing answers through Redis', () => {
  it('a valuation one replica paid for is answered by the other from Redis, identical, with no second upstream call', async () => {
    const asset = { segment: 'watches', brand: 'Rolex', model: 'Daytona', reference: 'SHARED-1' };
    const before = upstream('/v1/valuations').length;
    const a = await ask(0, '/valuations', asset);
    const b = await ask(1, '/valuations', asset);
    expect(a.status).toBe(200);
    expect(b).toEqual(a);
    expect(upstream('/v1/valuations').length - before).toBe(1);
  }, 60_000);

  it('the same request on both replicas at once goes upstream once (the claim in Redis coalesces it)', async () => {
    const asset = { segment: 'watches', brand: 'Omega', model: 'Seamaster', reference: 'SHARED-2' };
    const before = upstream('/v1/valuations').length;
    const [a, b] = await Promise.all([ask(0, '/valuations', asset), ask(1, '/valuations', asset)]);
    expect(a.status).toBe(200);
    expect(b).toEqual(a);
    expect(upstream('/v1/valuations').length - before).toBe(1);
  }, 60_000);

  it("a batch on the second replica sends upstream only the items the first has not valued", async () => {
    const assets = Array.from({ length: 4 }, (_, i) => ({ segment: 'watches', brand: 'Cartier', model: 'Santos', reference: `SHARED-B${i}` }));
    const before = upstream('/v1/valuations/batch');
    const a = await ask(0, '/valuations/batch', { assets: assets.slice(0, 3) });
    const b = await ask(1, '/valuations/batch', { assets });
    expect([a.status, b.status]).toEqual([200, 200]);
    const sent = upstream('/v1/valuations/batch').slice(before.length);
    expect(sent.map((l) => l.items)).toEqual([3, 1]);
    const values = (r: unknown) => (r as { valuations: { estimated_value: { mid: number } }[] }).valuations.map((v) => v.estimated_value.mid);
    expect(values(b.json).slice(0, 3)).toEqual(values(a.json));
  }, 60_000);

  it('a replica whose first look missed an answer that landed just before its claim uses that answer, not a second call', async () => {
    // The interleaving that paid twice: B reads (miss), A lands its answer and releases its lock,
    // B claims (granted, the lock is gone). B must look again before calling upstream.
    const client = new Redis(redis.url);
    try {
      const answers = new RedisAnswers(client, 'interleave-test', () => {});
      await answers.clear();
      const staleFirstRead: SharedAnswers = Object.assign(Object.create(answers) as SharedAnswers, {
        first: true,
        async getMany(this: { first: boolean }, keys: readonly string[]) {
          if (this.first) {
            this.first = false;
            return keys.map(() => undefined);
          }
          return answers.getMany(keys);
        },
      });
      const call = { params: {}, query: new URLSearchParams(), body: { segment: 'watches', brand: 'Omega', model: 'Speedmaster' } };
      const validUntil = new Date(Date.now() + 3_600_000).toISOString();
      // A real valuation's shape: answers read from Redis are checked against the wire schema before use.
      const real = (await ask(0, '/valuations', { ...call.body, reference: 'INTERLEAVE' })).json as object;
      const a = new HostApiCache(Date.now, answers);
      const first = await a.call('createValuation', call, async () => ({ ...real, id: 'val_a', valid_until: validUntil }));
      let upstreamCallsOfB = 0;
      const b = new HostApiCache(Date.now, staleFirstRead);
      const second = await b.call('createValuation', call, async () => {
        upstreamCallsOfB++;
        return { ...real, id: 'val_b', valid_until: validUntil };
      });
      expect(upstreamCallsOfB).toBe(0);
      expect(second).toEqual(first);
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
