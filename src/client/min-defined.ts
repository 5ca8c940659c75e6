/** The smaller of two numbers where either may be unknown (undefined); unknown only when both are. */
export function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
