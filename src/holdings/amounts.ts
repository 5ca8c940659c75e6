/**
 * Amounts typed as text, read exactly or not at all. "12.500" is twelve and a half to one reader
 * and twelve thousand five hundred to another; such a number is read only under a known
 * convention (declared for the file, or seen unambiguously in the rest of its column) and is
 * otherwise refused with both readings, never guessed.
 */

/** Which character separates the decimals: '.' (12,500.50) or ',' (12.500,50). */
export type DecimalMark = '.' | ',';

export type AmountReading =
  | { value: number }
  | { error: string }
  /** Both conventions read it, differently: [with '.' as the decimal mark, with ','] */
  | { ambiguous: [number, number] };

const POINT_CURRENCY = new Set(['$', '£', 'USD', 'GBP']);
/** Thousands separators that mean the same in both conventions: spaces (also no-break) and the Swiss apostrophe. */
const NEUTRAL_GROUP = /[\s\u00a0\u202f'’]/;
const LEADING_CURRENCY = /^(USD|EUR|GBP|CHF|[$€£])\s*/i;
const TRAILING_CURRENCY = /\s*(USD|EUR|GBP|CHF|[$€£])$/i;
const AMOUNT_BODY = /^[\d.,\s\u00a0\u202f'’]*\d[\d.,\s\u00a0\u202f'’]*$|^\d+(\.\d+)?e[+-]?\d+$/i;

/** "-$ 12,500.00" → sign -1, currency "$", body "12,500.00"; undefined when the rest is not digits and separators. */
function parts(text: string): { sign: number; currency?: string; body: string } | undefined {
  let t = text.trim();
  let sign = 1;
  let currency: string | undefined;
  if (t[0] === '-' || t[0] === '+') {
    if (t[0] === '-') sign = -1;
    t = t.slice(1).trimStart();
  }
  let m = LEADING_CURRENCY.exec(t);
  if (m) {
    currency = m[1]!.toUpperCase();
    t = t.slice(m[0].length);
    if (sign === 1 && (t[0] === '-' || t[0] === '+')) {
      if (t[0] === '-') sign = -1;
      t = t.slice(1).trimStart();
    }
  }
  m = TRAILING_CURRENCY.exec(t);
  if (m && currency === undefined) {
    currency = m[1]!.toUpperCase();
    t = t.slice(0, m.index);
  }
  const body = t.trim();
  return AMOUNT_BODY.test(body) ? { sign, currency, body } : undefined;
}

/** A file's or column's decimal mark, and whether the user declared it (--decimal-comma) or it was seen in the column. */
export interface DecimalConvention {
  mark: DecimalMark;
  declared: boolean;
}

/**
 * Reads an amount. A declared convention decides every amount. Otherwise an amount that reads
 * differently under the two conventions ("12.500") is ambiguous, unless the column's detected
 * convention (or a $ or £ beside it) makes its separator a thousands separator: "€ 98.000" in a
 * column of "12.500,00 €" is 98000. A detected convention never makes it a decimal mark with
 * three decimals ("98.000" as 98 in a column of "12,500.00"): that is the misreading this
 * guards against, so it stays refused.
 */
export function readAmount(text: string, convention?: DecimalConvention): AmountReading {
  const p = parts(text);
  if (!p) return { error: 'not a number' };
  const { sign, currency, body } = p;
  if (/^\d+(\.\d+)?e[+-]?\d+$/i.test(body)) return { value: sign * Number(body) };
  const point = underMark(body, '.');
  const comma = underMark(body, ',');
  if (point === undefined && comma === undefined) return { error: 'not a number' };
  if (convention?.declared) {
    const v = convention.mark === '.' ? point : comma;
    if (v !== undefined) return { value: sign * v };
    return { error: convention.mark === '.' ? 'not a number with a decimal point' : 'not a number with a decimal comma' };
  }
  if (point !== undefined && comma !== undefined && point !== comma) {
    const separator = body.includes('.') ? '.' : ',';
    const seen = convention?.mark ?? (currency && POINT_CURRENCY.has(currency) ? '.' : undefined);
    if (seen !== undefined && seen !== separator) return { value: sign * (seen === '.' ? point : comma) };
    return { ambiguous: [sign * point, sign * comma] };
  }
  return { value: sign * (point ?? comma)! };
}

/**
 * The convention a single amount shows by itself, if any: "12,500.00", "1.250.000", "12,5" and
 * "1234.500" each allow only one reading. Used to detect a column's convention.
 */
export function markShown(text: string): DecimalMark | undefined {
  const body = parts(text)?.body;
  if (body === undefined || !/[.,]/.test(body) || /e/i.test(body)) return undefined;
  const point = underMark(body, '.');
  const comma = underMark(body, ',');
  if (point !== undefined && comma === undefined) return '.';
  if (comma !== undefined && point === undefined) return ',';
  return undefined;
}

/**
 * The convention of a column: the one every self-explaining amount in it shows, when they agree
 * and at least one shows it; undefined when none does or they disagree.
 */
export function detectMark(texts: Iterable<string>): DecimalMark | undefined {
  let seen: DecimalMark | undefined;
  for (const t of texts) {
    const m = markShown(t);
    if (m === undefined) continue;
    if (seen !== undefined && seen !== m) return undefined;
    seen = m;
  }
  return seen;
}

/** The number `body` is under one convention, or undefined when it is not well formed under it. */
function underMark(body: string, mark: DecimalMark): number | undefined {
  const group = mark === '.' ? ',' : '.';
  const parts = body.split(mark);
  if (parts.length > 2) return undefined;
  const [whole = '', fraction] = parts;
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return undefined;
  const digits = wholeDigits(whole, group);
  if (digits === undefined || (digits === '' && fraction === undefined)) return undefined;
  return Number(`${digits || '0'}${fraction !== undefined ? `.${fraction}` : ''}`);
}

/** "12,500" → "12500" when grouped properly (1 to 3 digits, then groups of 3, one separator kind); "" for nothing. */
function wholeDigits(whole: string, group: string): string | undefined {
  if (/^\d*$/.test(whole)) return whole;
  const seps = new Set(whole.replace(/\d/g, '').split(''));
  if (seps.size !== 1) return undefined;
  const sep = [...seps][0]!;
  if (sep !== group && !NEUTRAL_GROUP.test(sep)) return undefined;
  const groups = whole.split(sep);
  const [lead, ...rest] = groups;
  if (!/^[1-9]\d{0,2}$/.test(lead!) || !rest.every((g) => /^\d{3}$/.test(g))) return undefined;
  return groups.join('');
}

/** "12500" and "12.5" for the message that shows a reader both readings: the separator, and the amount it is read as either way. */
export function bothReadings([point, comma]: [number, number], text: string): { sep: string; thousands: string; decimal: string } {
  const sep = text.includes('.') ? '.' : ',';
  const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 10, useGrouping: false });
  return { sep, thousands: fmt(sep === '.' ? comma : point), decimal: fmt(sep === '.' ? point : comma) };
}
