/**
 * Reading the cell values people type: numbers with currency symbols and thousands
 * separators, yes/no flags, dates as text or spreadsheet dates. Each reader returns
 * undefined for an empty cell and { error } for something it cannot read.
 */
import { isRealDate } from '../wire';
import { bothReadings, readAmount, type DecimalConvention } from './amounts';

export type Read<T> = { value: T } | { error: string; /** A sentence that replaces the field's generic reason. */ reason?: string } | undefined;

export function cellText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date) return isNaN(v.getTime()) ? undefined : v.toISOString().slice(0, 10);
  const t = String(v).trim();
  return t === '' ? undefined : t;
}

/**
 * "12,500.00", "$12 500", "12.500,00 €", "1e3" are numbers; "twelve" is not. "12.500" and
 * "€ 98.000" are numbers only under a known decimal mark (see amounts.ts): without one they are
 * refused with both readings.
 */
export function readNumber(v: unknown, convention?: DecimalConvention): Read<number> {
  if (typeof v === 'number') return Number.isFinite(v) ? { value: v } : { error: 'not a finite number' };
  const t = cellText(v);
  if (t === undefined) return undefined;
  const r = readAmount(t, convention);
  if ('ambiguous' in r) {
    return {
      error: 'ambiguous',
      reason:
        `is ambiguous: ${bothReadings(r.ambiguous, t)}. ` +
        'Declare the file\'s convention (svc-report --decimal-comma for 1.234,56 or --no-decimal-comma for 1,234.56; or "decimal_comma" in the config file) or write the amount without thousands separators',
    };
  }
  if ('error' in r && convention?.declared && r.error !== 'not a number') {
    return { error: r.error, reason: `is ${r.error}, as the file's amounts are declared (${convention.mark === ',' ? '1.234,56' : '1,234.56'})` };
  }
  return r;
}

export function readInteger(v: unknown, convention?: DecimalConvention): Read<number> {
  const n = readNumber(v, convention);
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
  if (m) return { value: m[1]! };
  const hint = isoDateHint(t);
  return { error: 'not a date as YYYY-MM-DD', reason: hint ? `must be a date as YYYY-MM-DD: ${hint}` : undefined };
}

/**
 * What to write instead of a date that is not YYYY-MM-DD or does not exist: "31/12/2023" can only
 * be 2023-12-31; "01/02/2023" is 1 February or January 2, so both are offered; "31/02/2025" and
 * "2025-02-31" are no day at all, so the month's last day is offered, never a day that does not
 * exist. Never read: the user chooses.
 */
export function isoDateHint(text: string): string | undefined {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (iso) return pastMonthEnd(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (!m) return undefined;
  const [a, b, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const real = (month: number, day: number) => {
    const d = isoOf(year, month, day);
    return isRealDate(d) ? d : undefined;
  };
  const dayFirst = real(b, a);
  const monthFirst = real(a, b);
  if (dayFirst && monthFirst && dayFirst !== monthFirst) return `write ${dayFirst} (day first) or ${monthFirst} (month first)`;
  const only = dayFirst ?? monthFirst;
  if (only) return `write ${only}`;
  return pastMonthEnd(year, b, a) ?? pastMonthEnd(year, a, b);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const isoOf = (year: number, month: number, day: number) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** "there is no 31 February 2025 (it has 28 days): …" for a day past its month's last; undefined for any other date. */
function pastMonthEnd(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day <= last) return undefined;
  return `there is no ${day} ${MONTHS[month - 1]} ${year} (it has ${last} days): write a day that exists, such as its last, ${isoOf(year, month, last)}`;
}

/** ": there is no 31 February 2025 …" for a date that does not exist, to follow its reason; "" when there is nothing to add. */
export function existsHint(text: string): string {
  const hint = isoDateHint(text);
  return hint ? `: ${hint}` : '';
}
