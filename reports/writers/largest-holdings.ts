import type { Holding } from '../report-data';

/**
 * The `limit` largest holdings by current value, largest first, in one pass and bounded memory
 * (the iterable may be a million lazily generated rows), with the count and value of the rest.
 */
export function largestHoldings(holdings: Iterable<Holding>, limit: number): { top: Holding[]; restCount: number; restValue: number; restCost: number } {
  // Kept sorted ascending, so the smallest kept holding is at index 0.
  const kept: Holding[] = [];
  let restCount = 0;
  let restValue = 0;
  let restCost = 0;
  const drop = (h: Holding) => {
    restCount++;
    restValue += h.current_value;
    restCost += h.purchase_price;
  };
  for (const h of holdings) {
    if (kept.length < limit) {
      kept.splice(insertionIndex(kept, h.current_value), 0, h);
      continue;
    }
    if (h.current_value <= kept[0]!.current_value) {
      drop(h);
      continue;
    }
    drop(kept.shift()!);
    kept.splice(insertionIndex(kept, h.current_value), 0, h);
  }
  return { top: kept.reverse(), restCount, restValue, restCost };
}

function insertionIndex(sorted: Holding[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.current_value < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
