/**
 * Money and quantities are `numeric` in the database (exact decimals, never float). Both drivers
 * hand numeric back as its decimal text; it becomes a number here, at the repository's boundary.
 * A number written as its shortest round-trip text (what the drivers send) reads back as the same
 * number, so a value recorded to the cent reads back to the cent.
 */
export function fromNumeric(text: string): number;
export function fromNumeric(text: string | null): number | undefined;
export function fromNumeric(text: string | null): number | undefined {
  if (text === null) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`the database returned a number this tool cannot read: ${text}`);
  return n;
}

/** A number to write: finite, or an error naming the field (NaN and Infinity have no numeric). */
export function toNumeric(value: number, field: string): string {
  if (!Number.isFinite(value)) throw new Error(`${field} must be a finite number, got ${value}`);
  return String(value);
}

export function toOptionalNumeric(value: number | undefined, field: string): string | null {
  return value === undefined ? null : toNumeric(value, field);
}
