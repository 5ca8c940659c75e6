/**
 * Reading the cell values people type: numbers with currency symbols and thousands
 * separators, yes/no flags, dates as text or spreadsheet dates. Each reader returns
 * undefined for an empty cell and { error } for something it cannot read.
 */
export type Read<T> = { value: T } | { error: string } | undefined;

export function cellText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date) return isNaN(v.getTime()) ? undefined : v.toISOString().slice(0, 10);
  const t = String(v).trim();
  return t === '' ? undefined : t;
}

/** "12,500.00", "$12 500", "€1.234" (read as 1.234), "1e3" are numbers; "twelve" is not. */
export function readNumber(v: unknown): Read<number> {
  if (typeof v === 'number') return Number.isFinite(v) ? { value: v } : { error: 'not a finite number' };
  const t = cellText(v);
  if (t === undefined) return undefined;
  const cleaned = t.replace(/^(USD|EUR|GBP|CHF)\s*/i, '').replace(/\s*(USD|EUR|GBP|CHF)$/i, '').replace(/[$€£\s\u00a0]/g, '').replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return { error: 'not a number' };
  return { value: Number(cleaned) };
}

export function readInteger(v: unknown): Read<number> {
  const n = readNumber(v);
  if (!n || 'error' in n) return n;
  return Number.isInteger(n.value) ? n : { error: 'not a whole number' };
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'x', '✓', 'full set', 'box & papers', 'box and papers']);
const FALSE = new Set(['false', 'no', 'n', '0', '-', 'none', 'watch only']);

export function readBoolean(v: unknown): Read<boolean> {
  if (typeof v === 'boolean') return { value: v };
  const t = cellText(v)?.toLowerCase();
  if (t === undefined) return undefined;
  if (TRUE.has(t)) return { value: true };
  if (FALSE.has(t)) return { value: false };
  return { error: 'not yes or no' };
}

/** A calendar date: a spreadsheet date cell, or text YYYY-MM-DD (a time part is ignored). */
export function readDateText(v: unknown): Read<string> {
  if (v instanceof Date) {
    if (isNaN(v.getTime())) return { error: 'not a date' };
    return { value: v.toISOString().slice(0, 10) };
  }
  const t = cellText(v);
  if (t === undefined) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+Z?)?$/.exec(t);
  return m ? { value: m[1]! } : { error: 'not a date as YYYY-MM-DD' };
}
