/** The ten market segments the service covers, with the code used inside asset ids. */
export const SEGMENTS = [
  { id: 'watches', code: 'WAT', name: 'Luxury Watches', coverage: 'Deep' },
  { id: 'art', code: 'ART', name: 'Contemporary Art', coverage: 'Deep' },
  { id: 'wine', code: 'WIN', name: 'Fine Wines', coverage: 'Deep' },
  { id: 'sneakers', code: 'SNK', name: 'Collectible Sneakers', coverage: 'Deep' },
  { id: 'bags', code: 'BAG', name: 'Luxury Handbags', coverage: 'Deep' },
  { id: 'cards', code: 'CRD', name: 'Collectible Cards', coverage: 'Deep' },
  { id: 'jewellery', code: 'JWL', name: 'High Jewellery', coverage: 'Established' },
  { id: 'automobiles', code: 'CAR', name: 'Classic Automobiles', coverage: 'Established' },
  { id: 'spirits', code: 'SPR', name: 'Rare Spirits', coverage: 'Established' },
  { id: 'real_estate', code: 'REA', name: 'Prestige Real Estate', coverage: 'Adapted' },
] as const;

export type SegmentInfo = (typeof SEGMENTS)[number];
export type SegmentId = SegmentInfo['id'];
export type SegmentCode = SegmentInfo['code'];

export const SEGMENT_IDS = SEGMENTS.map((s) => s.id) as [SegmentId, ...SegmentId[]];

const byId = new Map<string, SegmentInfo>(SEGMENTS.map((s) => [s.id, s]));
const byCode = new Map<string, SegmentInfo>(SEGMENTS.map((s) => [s.code, s]));

export function isSegmentId(value: unknown): value is SegmentId {
  return typeof value === 'string' && byId.has(value);
}

export function segmentById(id: string): SegmentInfo | undefined {
  return byId.get(id);
}

export function segmentByCode(code: string): SegmentInfo | undefined {
  return byCode.get(code.toUpperCase());
}

/**
 * Reads a segment a person typed ("Watches", "real estate", "WAT", "Fine Wines")
 * into its id, or undefined. The wire itself only accepts exact ids.
 */
export function parseSegment(input: string): SegmentId | undefined {
  const t = input.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (byId.has(t)) return t as SegmentId;
  const code = byCode.get(t.toUpperCase());
  if (code) return code.id;
  const named = SEGMENTS.find((s) => s.name.toLowerCase().replace(/\s+/g, '_') === t);
  if (named) return named.id;
  if (t === 'jewelry') return 'jewellery';
  if (t === 'cars' || t === 'classic_cars') return 'automobiles';
  return undefined;
}
