import { segmentByCode, segmentById, type SegmentId } from './segments';

/**
 * Asset ids: SVC-{CODE}-{BRAND}-{REF}[-{YEAR}][-{EXTRA}...], every component upper-case
 * A-Z0-9. The same descriptive input always yields the same id (case, spacing,
 * punctuation and accents do not matter), so ids can key caches and checkpoints.
 */
export interface AssetIdParts {
  segment: SegmentId;
  brand: string;
  ref: string;
  year?: number;
  extra: string[];
}

export interface AssetIdInput {
  segment: SegmentId;
  brand: string;
  model?: string;
  reference?: string;
  year?: number;
  size?: string;
}

export const ASSET_ID_PATTERN = /^SVC-[A-Z]{3}-[A-Z0-9]+-[A-Z0-9]+(-[A-Z0-9]+)*$/;

/** Upper-case A-Z0-9 only: accents folded, everything else dropped. */
export function idComponent(text: string, max = 24): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, max);
}

/** Short brand code: one word keeps up to 8 letters, several words 3 letters each (at most 4 words). */
export function brandCode(brand: string): string {
  const words = brand
    .split(/[\s&.,'’/-]+/)
    .map((w) => idComponent(w))
    .filter((w) => w.length > 0);
  if (words.length === 0) return 'X';
  if (words.length === 1) return words[0]!.slice(0, 8);
  return words
    .slice(0, 4)
    .map((w) => w.slice(0, 3))
    .join('');
}

/** A size becomes a trailing part: "10.5" -> "S10P5", "25cm" -> "S25CM". */
export function sizePart(size: string): string {
  return 'S' + idComponent(size.replace(/\./g, 'P'), 12);
}

export function formatAssetId(asset: AssetIdInput): string {
  const seg = segmentById(asset.segment);
  if (!seg) throw new Error(`unknown segment '${asset.segment}'`);
  const ref = idComponent(asset.reference ?? '') || idComponent(asset.model ?? '', 16) || 'NA';
  const parts = ['SVC', seg.code, brandCode(asset.brand), ref];
  if (asset.year !== undefined && Number.isInteger(asset.year)) parts.push(String(asset.year));
  if (asset.size !== undefined && idComponent(asset.size) !== '') parts.push(sizePart(asset.size));
  return parts.join('-');
}

export function parseAssetId(id: string): AssetIdParts | undefined {
  if (!ASSET_ID_PATTERN.test(id)) return undefined;
  const [, code, brand, ref, ...rest] = id.split('-');
  const seg = segmentByCode(code!);
  if (!seg) return undefined;
  let year: number | undefined;
  if (rest[0] !== undefined && /^\d{4}$/.test(rest[0])) {
    year = Number(rest.shift());
  }
  return { segment: seg.id, brand: brand!, ref: ref!, year, extra: rest };
}

export function isAssetId(value: unknown): value is string {
  return typeof value === 'string' && parseAssetId(value) !== undefined;
}
