import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstreamProxy } from './upstream-proxy';
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

/** The sandbox behind a gate holding every batch call until `holdUntil` of them wait together. */
async function startGate(upstream: string, holdUntil: number) {
  const held: (() => void)[] = [];
  let inFlight = 0;
  let peak = 0;
  const proxy = await startUpstreamProxy(upstream, {
    hold: (path) => {
      if (!path.endsWith('/valuations/batch')) return undefined;
      inFlight++;
      peak = Math.max(peak, inFlight);
      return new Promise<void>((release) => {
        held.push(() => {
          inFlight--;
          release();
        });
        if (held.length >= holdUntil) held.splice(0).forEach((r) => r());
      });
    },
  });
  return {
    ...proxy,
    get inFlightPeak() {
      return peak;
    },
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
