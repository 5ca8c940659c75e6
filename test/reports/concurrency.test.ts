import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, type FetchLike } from '../../src/client';
import { loadHoldings } from '../../src/holdings/load';
import { startSandbox } from '../../src/sandbox';
import { Checkpoint } from '../../reports/run/checkpoint';
import type { Progress, ProgressSnapshot } from '../../reports/run/progress';
import { valueEverything } from '../../reports/run/value-portfolios';
import { csvFile, runCli, serviceEnv, tempDir, watchRows } from './helpers';

let sb: { url: string; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  dir = tempDir('svc-report-concurrency-');
  // A remote service: every answer takes 40–80 ms, longer than the pace between calls.
  sb = await startSandbox({ port: 0, quiet: true, faults: 'latency=40-80', seed: 3 });
});
afterAll(async () => {
  await sb?.close();
});

/** A client whose fetch notes how many batch valuation calls (and calls of any kind) are answered at once. */
function observedClient(account: string) {
  const seen = { maxCalls: 0, maxBatches: 0 };
  let calls = 0;
  let batches = 0;
  const fetch: FetchLike = async (input, init) => {
    const batch = String(input).endsWith('/valuations/batch');
    calls++;
    if (batch) batches++;
    seen.maxCalls = Math.max(seen.maxCalls, calls);
    seen.maxBatches = Math.max(seen.maxBatches, batches);
    try {
      const res = await globalThis.fetch(input, init);
      await res.clone().arrayBuffer();
      return res;
    } finally {
      calls--;
      if (batch) batches--;
    }
  };
  // Its own gate (rateLimitKey): other tests' calls on the same demo account must not pace this one.
  const client = new ServiceClient({ baseUrl: sb.url, clientId: account, clientSecret: `${account}-secret`, tier: 'enterprise', rateLimitKey: `concurrency-${Math.random()}`, fetch });
  return { client, seen };
}

const quiet: Progress = { update() {}, log() {}, stop() {} };

async function portfolios(name: string, count: number, holdings: number) {
  const file = join(dir, `${name}.csv`);
  const rows = watchRows(count * holdings).map((r, i) => `${r},P${Math.floor(i / holdings) + 1}`);
  writeFileSync(file, csvFile(rows).replace(/^(.*)\n/, '$1,portfolio\n'));
  return (await loadHoldings([file], { asOf: '2026-10-31' })).portfolios;
}

describe('the report job against a slow service', () => {
  it('keeps more than one call in flight, across portfolios as well as within one', async () => {
    const input = await portfolios('three', 3, 20); // one chunk each: only portfolios in flight together overlap their batches
    const { client, seen } = observedClient('demo-enterprise');
    const cp = Checkpoint.fresh(tempDir(), 'key', '2026-11-01T00:00:00.000Z');
    const updates: ProgressSnapshot[] = [];
    const progress: Progress = { ...quiet, update: (u) => updates.push(u) };
    const results = await valueEverything(client, input, cp, { currency: 'USD', signal: new AbortController().signal, progress, consolidated: true });
    await cp.close();
    expect([...results.values()].flatMap((r) => r.valuations).filter((v) => v?.ok)).toHaveLength(60);
    // One bar over the three portfolios in flight, counting up to every holding once.
    expect(new Set(updates.map((u) => u.label))).toEqual(new Set(['3 portfolios']));
    expect(updates.map((u) => u.done)).toEqual([...updates.map((u) => u.done)].sort((a, b) => a - b));
    expect(updates.at(-1)).toMatchObject({ done: 60, total: 60 });
    expect(seen.maxBatches).toBeGreaterThan(1);
    expect(seen.maxCalls).toBeGreaterThan(1);
  });

  it('with --concurrency 1 sends one call at a time', async () => {
    const input = await portfolios('one-at-a-time', 2, 60);
    const { client, seen } = observedClient('demo-enterprise');
    const cp = Checkpoint.fresh(tempDir(), 'key', '2026-11-01T00:00:00.000Z');
    await valueEverything(client, input, cp, { currency: 'USD', signal: new AbortController().signal, progress: quiet, consolidated: true, concurrency: 1 });
    await cp.close();
    expect(seen.maxCalls).toBe(1);
  });

  it('writes the same json and csv reports, holdings in order, as a run with --concurrency 1', async () => {
    // Answers take 20–300 ms while calls leave about 60 ms apart: of a portfolio's ten chunks,
    // later ones often land before earlier ones (a chunk overtakes its predecessor about one time
    // in three, so in 27 neighbouring pairs almost surely). A report that followed landing order
    // instead of each holding's position would differ from the sequential run's.
    const spread = await startSandbox({ port: 0, quiet: true, faults: 'latency=20-300', seed: 7 });
    try {
      const file = join(dir, 'same.csv');
      const rows = watchRows(1500).map((r, i) => `${r},${['Alpha', 'Beta', 'Gamma'][Math.floor(i / 500)]}`);
      writeFileSync(file, csvFile(rows).replace(/^(.*)\n/, '$1,portfolio\n'));
      const args = (out: string, extra: string[] = []) => ['run', file, '--out', join(dir, out), '--formats', 'json,csv', '--as-of', '2026-10-31', ...extra];
      const overlapped = await runCli(args('overlapped'), serviceEnv(spread));
      const sequential = await runCli(args('sequential', ['--concurrency', '1']), serviceEnv(spread));
      expect([overlapped.code, sequential.code]).toEqual([0, 0]);
      const names = readdirSync(join(dir, 'sequential')).sort();
      expect(names.filter((n) => /^(alpha|beta|gamma|consolidated)-2026-10-31\.(json|csv)$/.test(n))).toHaveLength(8); // three portfolios and the consolidated report, two formats each
      expect(readdirSync(join(dir, 'overlapped')).sort()).toEqual(names);
      for (const name of names) expect(readFileSync(join(dir, 'overlapped', name), 'utf8'), name).toBe(readFileSync(join(dir, 'sequential', name), 'utf8'));
      const alpha = JSON.parse(readFileSync(join(dir, 'overlapped', 'alpha-2026-10-31.json'), 'utf8')) as { holdings: { row: number }[] };
      const rowsInOrder = alpha.holdings.map((h) => h.row);
      expect(rowsInOrder).toEqual([...rowsInOrder].sort((a, b) => a - b));
      expect(rowsInOrder).toHaveLength(500);
    } finally {
      await spread.close();
    }
  }, 240_000);

  it("checks the day's budget for every portfolio before any is valued: with several in flight, one that does not fit is skipped and nothing overspends", async () => {
    // 1 (segments) + 14 (one portfolio: valuation, score, 5 projections, 5 exits, portfolio, performance) + 2 (consolidated) + 5 to spare: the second portfolio does not fit.
    const tight = await startSandbox({ port: 0, quiet: true, faults: 'latency=20-40', accounts: [{ client_id: 'tight', client_secret: 'tight-secret-for-this-test', tier: 'enterprise', per_day: 22 }] });
    try {
      const input = await portfolios('tight', 2, 10);
      const client = new ServiceClient({ baseUrl: tight.url, clientId: 'tight', clientSecret: 'tight-secret-for-this-test', rateLimitKey: `tight-${Math.random()}` });
      const cp = Checkpoint.fresh(tempDir(), 'key', '2026-11-01T00:00:00.000Z');
      const logged: string[] = [];
      const results = await valueEverything(client, input, cp, { currency: 'USD', signal: new AbortController().signal, progress: { ...quiet, log: (l) => logged.push(l) }, consolidated: true });
      await cp.close();
      expect(results.get('P1')!.valuations.every((v) => v?.ok)).toBe(true);
      expect(results.get('P1')!.projections.included).toBe(true);
      expect(results.get('P2')!.problems).toEqual([expect.stringMatching(/Portfolio "P2" was not valued: it needs about 14 requests but only 5 remain/)]);
      expect(logged).toEqual([expect.stringMatching(/"P2" was not valued/)]);
      expect(client.rateLimitStatus().dayRemaining).toBeGreaterThanOrEqual(0);
    } finally {
      await tight.close();
    }
  });
});
