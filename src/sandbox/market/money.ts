/** Rounding rules shared by every output: money to cents, percents to two places. */

export function round2(x: number): number {
  return Math.round((x + Number.EPSILON * Math.sign(x)) * 100) / 100;
}

export function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

export function toCents(x: number): number {
  return Math.round(x * 100);
}

export function fromCents(c: number): number {
  return c / 100;
}

export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * Percent shares of `parts` rounded to two places that add up to exactly 100.00
 * (largest remainder), so an allocation table never sums to 99.99.
 */
export function percentagesSummingTo100(parts: readonly number[]): number[] {
  const total = parts.reduce((a, b) => a + b, 0);
  if (total <= 0) {
    if (parts.length === 0) return [];
    // Nothing is worth anything: share equally so the column still adds up.
    return percentagesSummingTo100(parts.map(() => 1));
  }
  const raw = parts.map((p) => (p / total) * 10_000);
  const floors = raw.map(Math.floor);
  let left = 10_000 - floors.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => ({ i, rem: r - floors[i]! })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const o of order) {
    if (left <= 0) break;
    floors[o.i]! += 1;
    left--;
  }
  return floors.map((f) => f / 100);
}
