import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, BadRequestError } from '../../src/client';
import { SEGMENT_IDS, type ValuationRequest } from '../../src/wire';
import { apiCalls, clientFor, count, readLog, start, valuedItems, watches, type Sandbox } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ minuteMs: 1000 });
});
afterAll(() => sb.close());

const enterprise = () => clientFor(sb, 'demo-enterprise', { tier: 'enterprise', limits: { minuteMs: 1000 } });

describe('valueAll / scoreAll', () => {
  it('results in input order, one outcome per item, chunks of at most 50', async () => {
    const items = watches(333);
    const before = (await readLog(sb)).length;
    const out = await enterprise().valueAll(items);
    expect(out).toHaveLength(333);
    out.forEach((o, i) => {
      expect(o.ok).toBe(true);
      if (o.ok) expect(o.value.asset_id).toContain(`R${i}`);
    });
    const batches = apiCalls((await readLog(sb)).slice(before)).filter((l) => l.path === '/v1/valuations/batch');
    expect(batches.map((b) => b.items).sort((a, b) => b - a)).toEqual([50, 50, 50, 50, 50, 50, 33]);
  });

  it('an item only the service refuses (inside a chunk) gets the error; the rest of its chunk is sent again', async () => {
    // A per-item currency that differs from the run's passes the shared schema; the service refuses it.
    const items: ValuationRequest[] = watches(120);
    items[57] = { ...items[57]!, currency: 'EUR' };
    items[61] = { ...items[61]!, currency: 'GBP' };
    const before = (await readLog(sb)).length;
    const out = await enterprise().valueAll(items, { currency: 'USD' });
    for (const bad of [57, 61]) {
      const o = out[bad]!;
      expect(o.ok).toBe(false);
      if (o.ok) continue;
      expect(o.error).toBeInstanceOf(BadRequestError);
      expect(o.error.field).toBe('currency');
      expect(o.error.message).not.toContain('assets[');
    }
    expect(out.filter((o) => o.ok)).toHaveLength(118);
    const log = apiCalls((await readLog(sb)).slice(before));
    expect(valuedItems(log)).toBe(118);
    // The second chunk: refused for item 7, then for item 10 (11 before the first was removed), then clean.
    expect(log.filter((l) => l.status === 400).map((l) => l.items)).toEqual([50, 49]);
  });

  it('items failing the shared schema get their error without a call', async () => {
    const items = watches(60) as unknown[];
    items[3] = { segment: 'yachts', brand: 'Riva', model: 'Aquarama' };
    items[55] = { segment: 'watches', brand: 'Rolex' };
    const before = (await readLog(sb)).length;
    const progress: { done: number; total: number }[] = [];
    const out = await enterprise().valueAll(items as ValuationRequest[], { onProgress: (p) => progress.push(p) });
    const e3 = out[3]!;
    expect(!e3.ok && e3.error.message).toBe(`segment 'yachts' is not one of ${SEGMENT_IDS.join(', ')}`);
    expect(!e3.ok && e3.error.allowedValues).toEqual([...SEGMENT_IDS]);
    const e55 = out[55]!;
    expect(!e55.ok && e55.error.field).toBe('model');
    const log = apiCalls((await readLog(sb)).slice(before));
    expect(log.map((l) => l.items).reduce((a, b) => a + b, 0)).toBe(58);
    expect(count(log, (l) => l.status !== 200)).toBe(0);
    expect(progress[0]).toEqual({ done: 0, total: 60 });
    expect(progress.at(-1)).toEqual({ done: 60, total: 60 });
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
  });

  it('scoreAll: an asset id the service cannot read is that item’s error only', async () => {
    const c = enterprise();
    // An id the service itself issued (hand-typed ids need not resolve).
    const issued = (await c.valuations.create({ segment: 'watches', brand: 'Rolex', model: 'Submariner', reference: '126610LN', year: 2021 })).asset_id;
    const items = [{ asset_id: issued }, { asset_id: 'not-an-asset' }, { segment: 'art' as const, artist: 'Banksy', title: 'Girl with Balloon' }];
    const out = await c.scoreAll(items);
    expect(out[0]!.ok && out[0]!.value.asset_id).toBe(issued);
    expect(!out[1]!.ok && out[1]!.error.field).toBe('asset_id');
    expect(out[2]!.ok).toBe(true);
  });

  it('abort: the run rejects with AbortedError and sends nothing more', async () => {
    // Starter pacing (60 a second): the 2,000-asset run is far from over when the first chunk lands.
    const c = clientFor(sb, 'demo-starter', { tier: 'starter', limits: { minuteMs: 1000 } });
    const ctrl = new AbortController();
    const before = (await readLog(sb)).length;
    const err = await c.valueAll(watches(2_000), { signal: ctrl.signal, concurrency: 2, onChunk: () => ctrl.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortedError);
    const sent = (await readLog(sb)).length - before;
    expect(sent).toBeLessThanOrEqual(2 + 1); // the chunks in flight (and the token request)
    await new Promise((r) => setTimeout(r, 300));
    expect((await readLog(sb)).length - before).toBe(sent);
    // A single call honours its signal too, even while waiting in the gate.
    const single = new AbortController();
    single.abort();
    await expect(c.segments.list({ signal: single.signal })).rejects.toBeInstanceOf(AbortedError);
  });
});
