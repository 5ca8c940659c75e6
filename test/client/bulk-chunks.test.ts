import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, ConfigurationError, type FetchLike, type LandedChunk } from '../../src/client';
import type { BatchValuationItem, ValuationRequest } from '../../src/wire';
import { clientFor, start, watches, type Sandbox } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ minuteMs: 1000 });
});
afterAll(() => sb.close());

/**
 * A real fetch whose batch answers are held until the test releases them: the test decides
 * the order in which chunks land, and counts calls in flight, without timing anything.
 */
function heldFetch() {
  const held: { release: () => void; itemCount: number; first: string }[] = [];
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let started = 0;
  const fetchImpl: FetchLike = async (url, init) => {
    if (!url.endsWith('/valuations/batch')) return fetch(url, init);
    started++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const res = await fetch(url, init);
    const assets = (JSON.parse(String(init.body)) as { assets: { reference: string }[] }).assets;
    await new Promise<void>((release) => {
      held.push({ release, itemCount: assets.length, first: assets[0]!.reference });
      waiting.splice(0).forEach((w) => w());
    });
    inFlight--;
    return res;
  };
  /** Resolves once `n` answers are being held. */
  const heldCount = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (held.length >= n ? resolve() : waiting.push(check));
      check();
    });
  return { fetchImpl, held, heldCount, stats: () => ({ inFlight, maxInFlight, started }) };
}

const client = (fetchImpl?: FetchLike) => clientFor(sb, 'demo-enterprise', { tier: 'enterprise', limits: { minuteMs: 1000 }, ...(fetchImpl ? { fetch: fetchImpl } : {}) });

describe('valueAll: chunks as they land', () => {
  it('chunks of at most 50 are in flight together and land in any order, each mapped to its input positions', async () => {
    const h = heldFetch();
    const items = watches(200, 'L');
    const landed: LandedChunk<BatchValuationItem>[] = [];
    let onLanded = () => {};
    const run = client(h.fetchImpl).valueAll(items, {
      concurrency: 4,
      onChunk: (c) => {
        landed.push(c);
        onLanded();
      },
    });
    await h.heldCount(4);
    expect(h.stats().inFlight).toBe(4);
    expect(h.held.map((x) => x.itemCount)).toEqual([50, 50, 50, 50]);
    // Land them last first, one at a time.
    const order = [...h.held].sort((a, b) => b.first.localeCompare(a.first, 'en', { numeric: true }));
    for (const x of order) {
      const landing = new Promise<void>((r) => (onLanded = r));
      x.release();
      await landing;
    }
    const out = await run;
    expect(h.stats().maxInFlight).toBe(4);
    expect(landed.map((c) => c.indices[0])).toEqual([150, 100, 50, 0]);
    for (const c of landed) {
      expect(c.indices).toHaveLength(50);
      c.indices.forEach((i, k) => {
        const o = c.outcomes[k]!;
        expect(o.ok && o.value.asset_id).toMatch(new RegExp(`L${i}(\\D|$)`));
        expect(out[i]).toBe(o);
      });
    }
  });

  it('onChunk is awaited before a chunk counts as landed; items refused before sending land with their chunk', async () => {
    const items = watches(120, 'A') as unknown[];
    items[7] = { segment: 'yachts', brand: 'Riva', model: 'Aquarama' };
    const seen = new Set<number>();
    const progress: number[] = [];
    let journalled = 0;
    let releaseJournal!: () => void;
    const journalGate = new Promise<void>((r) => (releaseJournal = r));
    let settled = false;
    let firstCall!: () => void;
    const firstCalled = new Promise<void>((r) => (firstCall = r));
    const run = client()
      .valueAll(items as ValuationRequest[], {
        concurrency: 1,
        onProgress: (p) => progress.push(p.done),
        onChunk: async (c) => {
          c.indices.forEach((i) => {
            expect(seen.has(i)).toBe(false);
            seen.add(i);
          });
          if (journalled === 0) {
            firstCall();
            await journalGate; // the journal of the first chunk is slow
          }
          journalled += c.indices.length;
        },
      })
      .then((r) => ((settled = true), r));
    await firstCalled;
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(progress).toEqual([0]); // nothing counted while the first chunk's journal is pending
    releaseJournal();
    const out = await run;
    expect([...seen].sort((a, b) => a - b)).toEqual(items.map((_, i) => i));
    expect(journalled).toBe(120);
    expect(progress.at(-1)).toBe(120);
    const bad = out[7]!;
    expect(!bad.ok && bad.error.field).toBe('segment');
  });

  it('an abort with chunks in flight: no call leaves after it, landed chunks stay landed, the run rejects with AbortedError', async () => {
    const h = heldFetch();
    const ctrl = new AbortController();
    const landed = new Set<number>();
    const run = client(h.fetchImpl)
      .valueAll(watches(500, 'B'), { concurrency: 3, signal: ctrl.signal, onChunk: (c) => c.indices.forEach((i) => landed.add(i)) })
      .catch((e: unknown) => e);
    await h.heldCount(3);
    h.held.find((x) => x.first === 'B50')!.release(); // the second chunk lands
    await h.heldCount(4); // its worker sent the next
    ctrl.abort();
    h.held.forEach((x) => x.release());
    const err = await run;
    expect(err).toBeInstanceOf(AbortedError);
    expect(h.stats().started).toBe(4);
    expect(h.stats().inFlight).toBe(0);
    // The chunk that landed before the abort was handed over, and nothing that never landed was.
    expect(landed.size % 50).toBe(0);
    expect(landed.has(50)).toBe(true);
  });

  it('a failing onChunk stops the run: no new chunk is sent, the run rejects with that error', async () => {
    const h = heldFetch();
    const boom = new Error('journal disk full');
    const run = client(h.fetchImpl)
      .valueAll(watches(400, 'C'), {
        concurrency: 2,
        onChunk: () => {
          throw boom;
        },
      })
      .catch((e: unknown) => e);
    await h.heldCount(2);
    h.held.forEach((x) => x.release());
    expect(await run).toBe(boom);
    expect(h.stats().started).toBe(2);
  });

  it('concurrency must be a whole number of at least 1', async () => {
    await expect(client().valueAll(watches(3), { concurrency: 0 })).rejects.toBeInstanceOf(ConfigurationError);
    await expect(client().valueAll(watches(3), { concurrency: 1.5 })).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('pacing(): the gate pace and the observed round trip, for a Little’s-law window', async () => {
    const c = clientFor(sb, 'demo-pro', { tier: 'pro', limits: { minuteMs: 1000, marginMs: 10 } });
    const before = c.pacing();
    expect(before.callsPerMs).toBeCloseTo(300 / 1010, 10);
    expect(before.roundTripMs).toBeUndefined();
    await c.valueAll(watches(10, 'P'));
    const after = c.pacing();
    expect(after.samples).toBeGreaterThan(0);
    expect(after.roundTripMs).toBeGreaterThan(0);
  });
});
