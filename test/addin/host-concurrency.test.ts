import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox, DEMO_ACCOUNTS, type RunningSandbox } from '../../src/sandbox';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { buildAddin } from '../../addin/build/build';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';

/**
 * Issue 11 for the host: many users' coalesced cells must not wait behind one another's round
 * trips. The service's latency is injected by a gate in front of the sandbox that holds every
 * batch call until USERS of them are in flight at once: if the host sent them one after
 * another, the gate would never open (the test fails on its guard instead of passing by luck).
 */

const USERS = 5;
const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
let sandbox: RunningSandbox;
let gate: { url: string; inFlightPeak: number; close(): Promise<void> };
let host: RunningAddinHost;
let dist: string;

async function startGate(upstream: string, holdUntil: number) {
  const held: (() => void)[] = [];
  let inFlight = 0;
  const state = { inFlightPeak: 0 };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const isBatch = req.url?.endsWith('/valuations/batch') ?? false;
    if (isBatch) {
      inFlight++;
      state.inFlightPeak = Math.max(state.inFlightPeak, inFlight);
      // The round trip's latency: held until enough calls are waiting together.
      await new Promise<void>((release) => {
        held.push(release);
        if (held.length >= holdUntil) held.splice(0).forEach((r) => r());
      });
    }
    const answer = await fetch(`${upstream}${req.url!.replace(/^\/v1/, '')}`, {
      method: req.method,
      headers: Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>,
      body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
    });
    if (isBatch) inFlight--;
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => k === 'content-type' || k.startsWith('x-'))));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get inFlightPeak() {
      return state.inFlightPeak;
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-addin-concurrency-'));
  await buildAddin({ outDir: dist });
  sandbox = await startSandbox({ port: 0, quiet: true });
  gate = await startGate(sandbox.url, USERS);
  host = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, officeJs: 'local', service: { baseUrl: gate.url, clientId: account.client_id, clientSecret: account.client_secret, tier: 'enterprise' } });
});

afterAll(async () => {
  await host?.close();
  await gate?.close();
  await sandbox?.close();
  await rm(dist, { recursive: true, force: true });
});

describe("the host's shared cache and client", () => {
  it("send different users' batches upstream together, not one round trip after another", async () => {
    const answers = await Promise.all(
      Array.from({ length: USERS }, async (_, u) => {
        const res = await fetch(`${host.url}/api/v1/valuations/batch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE },
          body: JSON.stringify({ assets: [{ segment: 'watches', brand: 'Omega', model: `Speedmaster user ${u}` }] }),
          signal: AbortSignal.timeout(60_000),
        });
        return res.status;
      }),
    );
    expect(answers).toEqual(Array(USERS).fill(200));
    expect(gate.inFlightPeak).toBe(USERS);
  }, 90_000);
});
