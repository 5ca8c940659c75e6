/**
 * Benchmark of the add-in's cell dispatcher: N cells over D distinct assets recalculated at
 * once, for (N, D) = (1,000, 300) and (10,000, 2,000). Three strategies, measured in the same
 * run against the same sandbox and through the same shared ServiceClient code:
 *
 * - coalesced: the add-in's CoalescingQueue (window, de-duplication, batches of 50, cache);
 *   goal: exactly ceil(D / 50) upstream calls;
 * - ms-sample: Microsoft's batching sample for custom functions (every invocation pushed to
 *   one array, sent when a 100 ms timer fires; no de-duplication, no cache), split into
 *   batch calls of 50 as the service requires;
 * - per-cell: one POST /valuations per cell.
 *
 * Upstream calls are read from the sandbox's request log; time is until the last cell
 * settles (median of three alternating runs for the two batching strategies, one run per cell). The sandbox account has limits far above the load, so the figures are the
 * strategies' own, not the rate limiter's. Also reported: the functions bundle's size.
 *
 *   npx tsx bench/addin.ts            # progress on stderr, ONE JSON line last on stdout
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceClient } from '../src/client';
import { startSandbox } from '../src/sandbox';
import type { BatchValuationItem, ValuationRequest } from '../src/wire';
import { CoalescingQueue } from '../addin/src/dispatcher/coalescing-queue';
import { requestKey } from '../addin/src/shared/request-key';
import { buildAddin } from '../addin/build/build';

const SCENARIOS = [
  { cells: 1_000, distinct: 300 },
  { cells: 10_000, distinct: 2_000 },
] as const;
const ACCOUNT = { client_id: 'bench-addin', client_secret: `bench-addin-${randomUUID()}`, tier: 'enterprise' as const, per_minute: 10_000_000, per_day: 100_000_000 };
const SEGMENTS = ['watches', 'art', 'wine', 'sneakers', 'bags', 'cards', 'jewellery', 'automobiles', 'spirits', 'real_estate'] as const;

interface Measure {
  upstream_calls: number;
  items_sent: number;
  ms: number;
  failed_cells: number;
}

/** `round` makes every run's assets new to the client and the sandbox alike (no run is served by another's warm state). */
function asset(i: number, round: string): ValuationRequest {
  return { segment: SEGMENTS[i % SEGMENTS.length]!, brand: `Maker ${i % 37}`, model: `Model ${i} ${round}`, reference: `R${i}` };
}

/** Cell k shows one of the D assets, in a deterministic shuffle: cells of a real sheet are in no particular order. */
function cellAssets(cells: number, distinct: number, round: string): ValuationRequest[] {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: cells }, (_, k) => asset(k < distinct ? k : next() % distinct, round));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Several runs per strategy, alternating, so neither pays the other's warm-up; the median run is reported. */
const ROUNDS = 3;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-bench-addin-'));
  const logFile = path.join(dir, 'sandbox.jsonl');
  const sandbox = await startSandbox({ port: 0, quiet: true, logFile, accounts: [ACCOUNT] });
  let clients = 0;
  const client = () =>
    new ServiceClient({ baseUrl: sandbox.url, clientId: ACCOUNT.client_id, clientSecret: ACCOUNT.client_secret, limits: { perMinute: ACCOUNT.per_minute, perDay: ACCOUNT.per_day }, rateLimitKey: `bench-${clients++}` });

  const logLines = async () => (await readFile(logFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { path: string; items: number });
  async function measure(label: string, run: (cells: ValuationRequest[]) => Promise<PromiseSettledResult<unknown>[]>, cells: ValuationRequest[]): Promise<Measure> {
    const before = (await logLines()).length;
    const started = performance.now();
    const settled = await run(cells);
    const ms = Math.round(performance.now() - started);
    const lines = (await logLines()).slice(before).filter((l) => l.path.startsWith('/v1/valuations'));
    const m = { upstream_calls: lines.length, items_sent: lines.reduce((s, l) => s + (l.items || 1), 0), ms, failed_cells: settled.filter((s) => s.status === 'rejected').length };
    process.stderr.write(`  ${label}: ${JSON.stringify(m)}\n`);
    return m;
  }

  const coalesced = (cells: ValuationRequest[]) => {
    const c = client();
    const q = new CoalescingQueue<ValuationRequest, BatchValuationItem>({ batch: (items, signal) => c.valueAll(items, { signal }), keyOf: requestKey });
    return Promise.allSettled(cells.map((r) => q.request(r)));
  };

  /** Microsoft's sample: push every invocation, flush the whole array when a 100 ms timer fires. */
  const msSample = (cells: ValuationRequest[]) => {
    const c = client();
    let batch: { request: ValuationRequest; resolve(v: unknown): void; reject(e: unknown): void }[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      const entries = batch;
      batch = [];
      timer = undefined;
      for (let i = 0; i < entries.length; i += 50) {
        const chunk = entries.slice(i, i + 50);
        c.valuations.batch({ assets: chunk.map((e) => e.request) }).then(
          (r) => chunk.forEach((e, k) => e.resolve(r.valuations[k])),
          (err: unknown) => chunk.forEach((e) => e.reject(err)),
        );
      }
    };
    return Promise.allSettled(
      cells.map(
        (request) =>
          new Promise((resolve, reject) => {
            batch.push({ request, resolve, reject });
            timer ??= setTimeout(flush, 100);
          }),
      ),
    );
  };

  const perCell = (cells: ValuationRequest[]) => {
    const c = client();
    return Promise.allSettled(cells.map((r) => c.valuations.create(r)));
  };

  // Warm-up: every strategy's code path and the sandbox's once, so no strategy pays the JIT for the others.
  process.stderr.write('warm-up\n');
  for (const run of [coalesced, msSample, perCell]) await run(cellAssets(2_000, 500, 'warm-up'));

  const scenarios = [];
  for (const s of SCENARIOS) {
    process.stderr.write(`N=${s.cells} cells over D=${s.distinct} assets\n`);
    const oursRuns: Measure[] = [];
    const sampleRuns: Measure[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      oursRuns.push(await measure(`coalesced #${r + 1}`, coalesced, cellAssets(s.cells, s.distinct, `c${r}`)));
      sampleRuns.push(await measure(`ms-sample #${r + 1}`, msSample, cellAssets(s.cells, s.distinct, `m${r}`)));
    }
    const pick = (runs: Measure[]) => runs.find((m) => m.ms === median(runs.map((x) => x.ms)))!;
    const ours = pick(oursRuns);
    const sample = pick(sampleRuns);
    const single = await measure('per-cell', perCell, cellAssets(s.cells, s.distinct, 'p'));
    scenarios.push({
      cells: s.cells,
      distinct: s.distinct,
      goal_calls: Math.ceil(s.distinct / 50),
      coalesced: ours,
      ms_sample: sample,
      per_cell: single,
      goal_met: oursRuns.every((m) => m.upstream_calls === Math.ceil(s.distinct / 50) && m.failed_cells === 0),
      calls_saved_vs_ms_sample: sample.upstream_calls - ours.upstream_calls,
      speedup_vs_ms_sample: Math.round((sample.ms / Math.max(ours.ms, 1)) * 100) / 100,
      speedup_vs_per_cell: Math.round((single.ms / Math.max(ours.ms, 1)) * 100) / 100,
    });
  }
  await sandbox.close();

  const built = await buildAddin({ outDir: path.join(dir, 'dist') });
  await rm(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ bench: 'addin', scenarios, functions_bundle: { bytes: built.functionsBytes, gzip_bytes: built.functionsGzipBytes } }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
