import type { CanonicalAsset, SegmentId } from '../../wire';
import { clamp } from './money';
import { SEGMENT_PROFILES } from './segment-profiles';

/**
 * How an asset's particulars move its price. Year and size are part of the asset's identity
 * (they appear in its id); condition, box and papers, quantity and an artwork's size are
 * particulars of one holding and move the value only.
 */

/** Well-regarded and weak years across the classic regions; others count as ordinary. */
const GREAT_VINTAGES = new Set([1945, 1947, 1959, 1961, 1982, 1985, 1989, 1990, 1996, 2000, 2005, 2009, 2010, 2015, 2016, 2018, 2019, 2020, 2022]);
const WEAK_VINTAGES = new Set([1984, 1987, 1991, 1992, 1993, 1997, 2002, 2007, 2013]);

function vintageQuality(year: number): number {
  return GREAT_VINTAGES.has(year) ? 1.15 : WEAK_VINTAGES.has(year) ? 0.78 : 1;
}

/** Price of `year` relative to the reference year of the same asset. */
export function yearFactor(segment: SegmentId, baseYear: number | undefined, year: number | undefined): number {
  if (year === undefined || year === baseYear) return 1;
  switch (segment) {
    case 'wine': {
      const from = baseYear ?? 2015;
      // Older bottles are scarcer; a great year beats its neighbours.
      return clamp((vintageQuality(year) / vintageQuality(from)) * Math.pow(1.025, from - year), 0.3, 4);
    }
    case 'spirits':
      return baseYear === undefined ? 1 : clamp(Math.pow(1.03, baseYear - year), 0.5, 3);
    case 'cards':
      // Another year of the same card is a reprint, not the rookie issue.
      return baseYear === undefined ? 1 : 0.85;
    case 'art':
    case 'real_estate':
      return 1;
    case 'automobiles':
      return baseYear === undefined ? 1 : clamp(1 + 0.01 * (year - baseYear), 0.9, 1.1);
    default: {
      // Goods: vintage pieces gain with age, modern ones are worth a little more new.
      if (baseYear !== undefined && baseYear < 1995) return clamp(1 + 0.01 * (baseYear - year), 0.85, 1.15);
      const from = baseYear ?? 2024;
      return clamp(1 + 0.008 * (year - from), 0.85, 1.05);
    }
  }
}

function sizeNumber(size: string): number | undefined {
  const m = /(\d+(?:[.,P]\d+)?)/i.exec(size);
  return m ? Number(m[1]!.replace(/[,P]/i, '.')) : undefined;
}

/** Price of `size` relative to the asset's reference size (pair, bag, case, bottle, floor area). */
export function sizeFactor(segment: SegmentId, baseSize: string | undefined, size: string | undefined): number {
  if (size === undefined || size === baseSize) return 1;
  const text = size.toLowerCase();
  const n = sizeNumber(text);
  switch (segment) {
    case 'sneakers':
      if (n === undefined) return 1;
      if (n >= 8 && n <= 12) return 1;
      if (n >= 7 && n <= 13) return 0.95;
      return n < 7 ? 0.9 : 0.88;
    case 'bags': {
      const base = baseSize !== undefined ? sizeNumber(baseSize) : undefined;
      if (n === undefined) return 1;
      // Smaller Birkins and Kellys trade at a premium.
      return clamp(1 + 0.02 * ((base ?? 30) - n), 0.85, 1.2);
    }
    case 'wine':
      if (/jeroboam|300/.test(text)) return (4 / 12) * 1.15;
      if (/magnum|150/.test(text)) return (2 / 12) * 1.1;
      if (/half|37/.test(text)) return (1 / 24) * 0.9;
      if (/bottle|75/.test(text)) return 1 / 12;
      if (/\b6\b|six/.test(text)) return 0.5;
      return 1;
    case 'spirits':
      if (/miniature|\b5\s*cl/.test(text)) return 0.05;
      if (/magnum|150|1\.5/.test(text)) return 2;
      if (/\b3[57]/.test(text)) return 0.5;
      return 1;
    case 'real_estate': {
      const base = baseSize !== undefined ? sizeNumber(baseSize) : undefined;
      if (n === undefined || base === undefined || n <= 0) return 1;
      return clamp(n / base, 0.2, 5);
    }
    default:
      return 1;
  }
}

/** Condition and completeness of one holding. */
export function particularsFactor(asset: CanonicalAsset, knownWork: boolean): number {
  const p = SEGMENT_PROFILES[asset.segment];
  let f = asset.condition ? p.condition[asset.condition] : 1;
  if (asset.box_papers === false) f *= 1 - p.incompleteDiscount;
  if (asset.segment === 'art' && asset.size_cm && !knownWork) {
    // An unknown work: larger canvases fetch more, less than in proportion.
    f *= clamp(Math.pow((asset.size_cm.width * asset.size_cm.height) / 10_000, 0.3), 0.6, 1.6);
  }
  return f;
}
