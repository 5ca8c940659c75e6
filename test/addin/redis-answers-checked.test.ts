import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { DEMO_ACCOUNTS, startSandbox, type LogLine, type RunningSandbox } from '../../src/sandbox';
import { startHostReplicas, type HostReplicas } from '../support/host-replicas';

/**
 * Issue 29, Redis as a boundary: an answer another replica left in Redis is input. One edited into
 * something that is not the operation's answer, or into another asset's answer, is not served: the
 * replica asks the service itself (the sandbox's request log counts it).
 */

const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
const dir = mkdtempSync(join(tmpdir(), 'svc-redis-answers-checked-'));
const logFile = join(dir, 'requests.jsonl');
let sandbox: RunningSandbox;
let redis: RedisProcess;
let hosts: HostReplicas;
let client: Redis;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, logFile });
  redis = await startRedis();
  hosts = await startHostReplicas(2, redis.url, { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, tier: account.tier }, { distDir: dir });
  client = new Redis(redis.url);
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  await hosts?.close();
  await sandbox?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const upstream = (suffix: string) =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.path.endsWith(suffix)).length;

async function ask(replica: number, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${hosts.replicas[replica]!.host.url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Forgets every shared answer (the replicas' own caches are per request: each step below asks another quantity). */
async function clearSharedAnswers(): Promise<void> {
  const keys = await client.keys('svc:answers:*');
  if (keys.length > 0) await client.del(...keys);
}

/** Every shared answer key now in Redis, replaced through `edit`. */
async function editSharedAnswers(edit: (value: Record<string, unknown>) => unknown): Promise<number> {
  const keys = (await client.keys('svc:answers:*')).filter((k) => k.includes('}:a:'));
  for (const k of keys) await client.set(k, JSON.stringify(edit(JSON.parse((await client.get(k))!) as Record<string, unknown>)), 'PX', 600_000);
  return keys.length;
}

describe('answers read from Redis are checked before they are served', () => {
  it('an answer edited into something else, or into another asset\'s, is not served: the replica asks the service', async () => {
    const first = await ask(0, '/valuations', { segment: 'watches', brand: 'Rolex', model: 'Daytona', reference: 'CHECKED-1' });
    expect(first.status).toBe(200);
    const assetId = first.json.asset_id as string;

    // Not a valuation at all.
    await clearSharedAnswers();
    await ask(0, '/valuations', { segment: 'watches', asset_id: assetId, quantity: 1 });
    expect(await editSharedAnswers(() => ({ note: 'not a valuation' }))).toBeGreaterThan(0);
    let before = upstream('/v1/valuations');
    const a = await ask(1, '/valuations', { segment: 'watches', asset_id: assetId, quantity: 1 });
    expect(a.status).toBe(200);
    expect(a.json.asset_id).toBe(assetId);
    expect(upstream('/v1/valuations') - before).toBe(1);

    // A well-formed valuation, but of another asset than the one asked.
    await clearSharedAnswers();
    await ask(0, '/valuations', { segment: 'watches', asset_id: assetId, quantity: 2 });
    expect(await editSharedAnswers((v) => ({ ...v, asset_id: 'watches-other-asset-0000' }))).toBeGreaterThan(0);
    before = upstream('/v1/valuations');
    const b = await ask(1, '/valuations', { segment: 'watches', asset_id: assetId, quantity: 2 });
    expect(b.status).toBe(200);
    expect(b.json.asset_id).toBe(assetId);
    expect(upstream('/v1/valuations') - before).toBe(1);

    // Unedited, the other replica's answer is used (no call): the checks do not refuse good answers.
    await clearSharedAnswers();
    await ask(0, '/valuations', { segment: 'watches', asset_id: assetId, quantity: 3 });
    before = upstream('/v1/valuations');
    expect((await ask(1, '/valuations', { segment: 'watches', asset_id: assetId, quantity: 3 })).json.asset_id).toBe(assetId);
    expect(upstream('/v1/valuations') - before).toBe(0);
  }, 60_000);

  it('a batch item edited in Redis is valued again, not served', async () => {
    const asset = { segment: 'watches', brand: 'Omega', model: 'Speedmaster', reference: 'CHECKED-2' };
    expect((await ask(0, '/valuations/batch', { assets: [asset] })).status).toBe(200);
    expect(await editSharedAnswers((v) => ({ ...v, item: { ...(v.item as object), estimated_value: 'a lot' } }))).toBeGreaterThan(0);
    const before = upstream('/v1/valuations/batch');
    const r = await ask(1, '/valuations/batch', { assets: [asset] });
    expect(r.status).toBe(200);
    expect(upstream('/v1/valuations/batch') - before).toBe(1);
  }, 60_000);
});
