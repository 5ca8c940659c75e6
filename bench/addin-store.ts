/**
 * What reading the answers kept on the machine costs a workbook open: 1,020 cell requests over
 * 300 assets answered by a fresh CoalescingQueue whose answers come from an AnswerStore over an
 * asynchronous storage shaped as OfficeRuntime.storage (every answer a later task), against a
 * baseline measured in the same run: the same requests to a queue that already holds the same
 * answers in memory. The answers are the sandbox's own for 300 catalogue assets; the store
 * holds 5,000 answers (the cap), so the read parses a full item. No upstream call is made in
 * either (asserted).
 *
 *   npx tsx bench/addin-store.ts      # progress on stderr, ONE JSON line last on stdout
 */
import { ServiceClient } from '../src/client';
import { DEMO_ACCOUNTS, startSandbox } from '../src/sandbox';
import type { BatchValuationItem, ValuationRequest } from '../src/wire';
import { AnswerStore, type KeptAnswer } from '../addin/src/dispatcher/answer-store';
import type { MachineStorage } from '../addin/src/dispatcher/machine-storage';
import { CoalescingQueue } from '../addin/src/dispatcher/coalescing-queue';
import { requestKey } from '../addin/src/shared/request-key';
import { holdingForAssetId, requestForAssetId } from '../addin/src/shared/holdings';
import { realCatalogueIds } from '../fixtures/issued-ids';

const RUNS = 7;
const CELLS = 1_020;

/** OfficeRuntime.storage's shape: promises answered in a later task. */
function asyncMapStorage(items: Map<string, string>): MachineStorage {
  const later = <T>(f: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(f()), 0));
  return {
    getItem: (k) => later(() => items.get(k) ?? null),
    setItem: (k, v) => later(() => void items.set(k, v)),
    removeItem: (k) => later(() => void items.delete(k)),
  };
}

function queueOver(store: AnswerStore<BatchValuationItem> | undefined): CoalescingQueue<ValuationRequest, BatchValuationItem> {
  return new CoalescingQueue<ValuationRequest, BatchValuationItem>({
    keyOf: requestKey,
    store,
    expiresAt: () => Date.now() + 3_600_000,
    batch: async () => {
      throw new Error('no upstream call expected');
    },
  });
}

async function timeRequests(queue: CoalescingQueue<ValuationRequest, BatchValuationItem>, requests: ValuationRequest[]): Promise<number> {
  const started = performance.now();
  await Promise.all(requests.map((r) => queue.request(r)));
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
  try {
    const ids = await realCatalogueIds(sandbox.url, account, 300);
    const client = new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, rateLimitKey: 'bench-addin-store' });
    const requests = ids.map((id) => requestForAssetId(holdingForAssetId('asset', id)));
    const outcomes = await client.valueAll(requests);
    const receivedAt = Date.now();
    const expiresAt = receivedAt + 3_600_000;
    const real: KeptAnswer<BatchValuationItem>[] = outcomes.flatMap((o, i) => (o.ok ? [[requestKey(requests[i]!), o.value, expiresAt, receivedAt] as KeptAnswer<BatchValuationItem>] : []));
    // Fill the item to the cap with other keys of the same answers: the read parses 5,000.
    const filler = Array.from({ length: 5_000 - real.length }, (_, i) => [`filler-${i}`, real[i % real.length]![1], expiresAt, receivedAt] as KeptAnswer<BatchValuationItem>);
    const items = new Map<string, string>();
    await new AnswerStore<BatchValuationItem>(asyncMapStorage(items), 'valuations:USD').save([...filler, ...real], Date.now());
    const itemChars = [...items.values()].reduce((n, v) => n + v.length, 0);
    const cells = Array.from({ length: CELLS }, (_, i) => requests[i % requests.length]!);

    const baseline: number[] = [];
    const kept: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Baseline: a queue that has already read the store (its first request waited for that), answering from memory.
      const preload = queueOver(new AnswerStore<BatchValuationItem>(asyncMapStorage(items), 'valuations:USD'));
      await preload.request(requests[0]!);
      baseline.push(await timeRequests(preload, cells));
      const fresh = queueOver(new AnswerStore<BatchValuationItem>(asyncMapStorage(items), 'valuations:USD'));
      kept.push(await timeRequests(fresh, cells));
      process.stderr.write(`run ${run + 1}: in memory ${baseline.at(-1)!.toFixed(1)} ms, read from the store ${kept.at(-1)!.toFixed(1)} ms\n`);
    }
    const result = {
      bench: 'addin-store',
      cells: CELLS,
      distinct: real.length,
      kept_answers: 5_000,
      item_chars: itemChars,
      in_memory_ms: Number(median(baseline).toFixed(1)),
      from_store_ms: Number(median(kept).toFixed(1)),
      first_open_extra_ms: Number((median(kept) - median(baseline)).toFixed(1)),
      ratio: Number((median(kept) / median(baseline)).toFixed(2)),
      runs: RUNS,
    };
    console.log(JSON.stringify(result));
  } finally {
    await sandbox.close();
  }
}

void main();
