/**
 * The `n` positions of largest value, largest first (ties: the earlier position first), in one
 * pass over the positions and without copying or sorting them: enrichment picks the top holdings
 * of portfolios of many thousands while score calls are due to leave on the same event loop.
 */
export function largest(positions: readonly number[], n: number, value: (position: number) => number): number[] {
  const best: number[] = [];
  if (n <= 0) return best;
  for (const p of positions) {
    const v = value(p);
    if (best.length === n && v <= value(best[n - 1]!)) continue;
    let k = best.length === n ? n - 1 : best.length;
    while (k > 0 && value(best[k - 1]!) < v) k--;
    best.splice(k, 0, p);
    if (best.length > n) best.pop();
  }
  return best;
}
