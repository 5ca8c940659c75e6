/** Values move daily (docs/decisions.md): an answer without its own validity lasts to the end of the UTC day. */
export function endOfUtcDay(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}
