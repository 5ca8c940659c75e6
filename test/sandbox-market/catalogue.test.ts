import { describe, expect, it } from 'vitest';
import { SEGMENT_IDS, parseAssetId } from '../../src/wire';
import { catalogue, displayModel } from '../../src/sandbox/market/catalogue';
import { createMarket } from '../../src/sandbox/market';
import { asset, ctxFor, DAYTONA, LAFITE_2010, NAUTILUS } from './helpers';

describe('reference catalogue', () => {
  const cat = catalogue();

  it('holds at least 300 assets, at least 20 in each of the 10 segments', () => {
    expect(cat.assets.length).toBeGreaterThanOrEqual(300);
    for (const s of SEGMENT_IDS) expect(cat.bySegment[s].length, s).toBeGreaterThanOrEqual(20);
  });

  it('gives every asset a unique, well-formed id that reads back to its segment', () => {
    const ids = new Set(cat.assets.map((a) => a.asset_id));
    expect(ids.size).toBe(cat.assets.length);
    for (const a of cat.assets) expect(parseAssetId(a.asset_id)?.segment).toBe(a.segment);
  });

  it('prices the named assets at realistic levels', () => {
    const m = createMarket();
    const ctx = ctxFor();
    const daytona = m.value(DAYTONA, ctx).estimated_value.mid;
    expect(daytona).toBeGreaterThan(22_000);
    expect(daytona).toBeLessThan(40_000);
    expect(m.value(NAUTILUS, ctx).estimated_value.mid).toBeGreaterThan(100_000);
    const lafite = m.value(LAFITE_2010, ctx).estimated_value.mid;
    expect(lafite).toBeGreaterThan(3_000);
    expect(lafite).toBeLessThan(20_000);
  });

  it('matches requests forgivingly: case, accents, punctuation, reference suffixes and aliases', () => {
    const m = createMarket();
    const ctx = ctxFor();
    const id = (a: Parameters<typeof asset>[0]) => m.value(asset(a), ctx).asset_id;
    const nautilus = cat.assets.find((a) => a.reference === '5711/1A')!.asset_id;
    expect(id({ segment: 'watches', brand: 'patek philippe', model: 'NAUTILUS', reference: '5711/1A-010' })).toBe(nautilus);
    expect(id({ segment: 'watches', brand: 'Patek', model: 'nautilus', reference: '5711 1a' })).toBe(nautilus);
    const lafite = m.value(LAFITE_2010, ctx).asset_id;
    expect(id({ segment: 'wine', brand: 'Chateau Lafite-Rothschild', model: 'Pauillac premier grand cru', year: 2010 })).toBe(lafite);
    expect(id({ segment: 'wine', brand: 'LAFITE', model: 'Grand vin', year: 2010 })).toBe(lafite);
    expect(id({ segment: 'watches', brand: 'Rolex', model: 'Daytona' })).toBe(m.value(DAYTONA, ctx).asset_id);
    expect(id({ segment: 'watches', brand: 'ROLEX', model: 'cosmograph daytona 116500 LN' })).toBe(m.value(DAYTONA, ctx).asset_id);
    // A different model of a known brand is not forced onto a catalogue entry.
    expect(id({ segment: 'watches', brand: 'Rolex', model: 'Daytona Rainbow' })).toBe('SVC-WAT-ROLEX-DAYTONARAINBOW');
    const macallan18 = cat.assets.find((a) => a.brand === 'The Macallan' && a.model.startsWith('18'))!.asset_id;
    expect(id({ segment: 'spirits', brand: 'Macallan', model: '18 year old sherry oak' })).toBe(macallan18);
    expect(id({ segment: 'spirits', brand: 'macallan', model: '18' })).toBe(macallan18);
  });

  it('finds every catalogue asset from its brand and model as lists show them, and from brand, model and reference', () => {
    const m = createMarket();
    const ctx = ctxFor();
    for (const a of cat.assets) {
      expect(m.value(asset({ segment: a.segment, brand: a.brand, model: displayModel(a) }), ctx).asset_id, displayModel(a)).toBe(a.asset_id);
      const full = asset({ segment: a.segment, brand: a.brand, model: a.model, reference: a.reference, year: a.year, size: a.size });
      expect(m.value(full, ctx).asset_id, a.model).toBe(a.asset_id);
    }
  });

  it('reads every catalogue id back to the same asset, and unknown ids plausibly', () => {
    const m = createMarket();
    const ctx = ctxFor();
    for (const a of cat.assets) {
      const back = m.assetForId(a.asset_id);
      expect(back, a.asset_id).toBeDefined();
      expect(m.value(back!, ctx).asset_id).toBe(a.asset_id);
    }
    for (const unknown of ['SVC-WAT-ROLEX-999999', 'SVC-SNK-SOMNEWBRA-XYZ-2021-S10P5', 'SVC-ART-ZZ-UNTITLED-1999', 'SVC-REA-SOMEWHERE-VILLA']) {
      const back = m.assetForId(unknown);
      expect(back, unknown).toBeDefined();
      expect(m.value(back!, ctx).asset_id).toBe(unknown);
    }
    expect(m.assetForId('not-an-id')).toBeUndefined();
    expect(m.assetForId('SVC-XXX-ROLEX-1')).toBeUndefined();
  });
});
