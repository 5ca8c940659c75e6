import { parseAssetId, segmentById, type SegmentId } from '../../wire';
import { REFERENCE_DAY } from './calendar';
import { catalogue, modelKeyOf, type BrandInfo, type KnownAsset } from './catalogue';
import { brandForCode, familyEntry, isDescribed, sizeFromIdPart } from './resolve';
import { sizeFactor, yearFactor } from './adjustments';
import { clamp } from './money';
import { signedHash, unitHash } from './random';
import { SEGMENT_PROFILES } from './segment-profiles';

/**
 * Everything about an asset that follows from its identity (its asset id): price level,
 * confidence, idiosyncratic drift and the static parts of its score. Built once per id and
 * cached, so a valuation only multiplies a few numbers.
 */
export interface AssetProfile {
  asset_id: string;
  segment: SegmentId;
  brand: string;
  model: string;
  reference?: string;
  year?: number;
  size?: string;
  source: 'catalogue' | 'brand' | 'segment';
  entry?: KnownAsset;
  /** Trend price on the reference day, USD, for one unit in reference condition. */
  baseUsd: number;
  confidence: number;
  dataPoints: number;
  /** Idiosyncratic path: a slight trend of its own and two slow waves around the segment. */
  tilt: number;
  waves: [amplitude: number, period: number, phase: number][];
  rarity: number;
  desirability: number;
  liquidity: number;
  recognition: number;
}

function brandStrength(brand: BrandInfo | undefined, segmentMedian: number): number {
  if (!brand) return 42;
  return clamp(50 + 5 * Math.min(brand.entries.length, 7) + 4 * Math.log2(brand.medianPrice / segmentMedian), 35, 95);
}

function coveragePenalty(segment: SegmentId): number {
  const coverage = segmentById(segment)!.coverage;
  return coverage === 'Deep' ? 0 : coverage === 'Established' ? 0.03 : 0.07;
}

export function buildProfile(assetId: string): AssetProfile | undefined {
  const parts = parseAssetId(assetId);
  if (!parts) return undefined;
  const cat = catalogue();
  const seg = parts.segment;
  const sp = SEGMENT_PROFILES[seg];
  const modelKey = modelKeyOf(seg, parts.brand, parts.ref);
  const sizePart = parts.extra.find((e) => e.startsWith('S'));
  const size = sizePart ? sizeFromIdPart(sizePart) : undefined;
  const described = isDescribed(parts.extra);
  // A described asset whose other parts spell a catalogue model moves on a path of its own.
  const pathKey = described ? `${modelKey}:${parts.extra.join('-')}` : modelKey;
  const h = (salt: string) => signedHash(`${pathKey}:${salt}`);
  const u = (salt: string) => unitHash(`${pathKey}:${salt}`);
  const segMedian = cat.segmentMedian[seg];
  const amplitude = (0.015 + 0.02 * u('a1')) * (sp.spread / 0.08);
  const waves: AssetProfile['waves'] = [
    [amplitude, 90 + 150 * u('p1'), 2 * Math.PI * u('f1')],
    [amplitude / 3, 20 + 30 * u('p2'), 2 * Math.PI * u('f2')],
  ];
  const tilt = 0.015 * h('tilt');

  const family = described ? undefined : cat.byModelKey.get(modelKey);
  if (family) {
    const entry = familyEntry(family, parts.year);
    const baseUsd = entry.price * yearFactor(seg, entry.year, parts.year) * sizeFactor(seg, entry.size, size);
    const ratio = Math.log2(baseUsd / segMedian);
    const brand = brandForCode(seg, parts.brand);
    const liquidity = clamp(sp.liquidity - 4 * Math.max(0, ratio) + 6 * h('l'), 5, 98);
    return {
      asset_id: assetId,
      segment: seg,
      brand: entry.brand,
      model: entry.model,
      reference: entry.reference,
      year: parts.year ?? entry.year,
      size: size ?? entry.size,
      source: 'catalogue',
      entry,
      baseUsd,
      confidence: clamp(Math.round((0.78 + 0.14 * (liquidity / 100) - coveragePenalty(seg) + 0.03 * h('c')) * 100) / 100, 0.6, 0.97),
      dataPoints: Math.round(30 + liquidity * 4 + 40 * u('n')),
      tilt,
      waves,
      rarity: clamp(56 + 12 * ratio + 8 * h('r'), 8, 99),
      desirability: clamp(brandStrength(brand, segMedian) + 5 * ratio + 6 * h('d'), 8, 99),
      liquidity,
      recognition: clamp(sp.recognition + 6 * ratio + 6 * h('i'), 5, 99),
    };
  }

  // Not in the catalogue: a level from its brand, or from the segment when the brand is unknown too.
  const brand = brandForCode(seg, parts.brand);
  const level = brand ? brand.medianPrice * (0.55 + 0.9 * u('lvl')) : segMedian * (0.35 + 0.9 * u('lvl'));
  const baseUsd = level * yearFactor(seg, undefined, parts.year) * sizeFactor(seg, undefined, size);
  const ratio = Math.log2(baseUsd / segMedian);
  return {
    asset_id: assetId,
    segment: seg,
    brand: brand?.name ?? parts.brand,
    model: parts.ref,
    year: parts.year,
    size,
    source: brand ? 'brand' : 'segment',
    baseUsd,
    confidence: brand ? Math.round((0.48 + 0.08 * u('c')) * 100) / 100 : Math.round((0.34 + 0.1 * u('c')) * 100) / 100,
    dataPoints: brand ? 6 + Math.floor(14 * u('n')) : 2 + Math.floor(6 * u('n')),
    tilt,
    waves,
    rarity: clamp(35 + 20 * u('r') + 3 * ratio, 5, 80),
    desirability: clamp(brandStrength(brand, segMedian) - 5 + 6 * h('d'), 5, 90),
    liquidity: clamp(sp.liquidity - 12 + 6 * h('l'), 5, 90),
    recognition: clamp(sp.recognition - 15 + 6 * h('i'), 5, 90),
  };
}

/** The asset's own multiplier on a day, around 1, relative to its segment. */
export function idiosyncratic(p: AssetProfile, day: number): number {
  let x = (p.tilt * (day - REFERENCE_DAY)) / 365.25;
  for (const [a, period, phase] of p.waves) x += a * Math.sin((2 * Math.PI * day) / period + phase);
  return Math.exp(x);
}
