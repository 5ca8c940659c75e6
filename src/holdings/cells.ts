/**
 * Reading the cell values people type: numbers with currency symbols and thousands
 * separators, yes/no flags, dates as text or spreadsheet dates. Each reader returns
 * undefined for an empty cell and { error } for something it cannot read.
 */
import { isRealDate } from '../wire';
import { bothReadings, readAmount, type DecimalConvention } from './amounts';
import { englishReason, rowReason, type RowReason } from './row-reasons';

/** A reason of the `holdings` catalogue that begins with its {field} (aboutField names it), replacing the field's generic reason. */
export type Read<T> = { value: T } | { error: string; reason?: RowReason } | undefined;

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
    return { error: 'ambiguous', reason: rowReason('holdings.amount_ambiguous', bothReadings(r.ambiguous, t)) };
  }
  if ('error' in r && convention?.declared && r.error !== 'not a number') {
    return { error: r.error, reason: rowReason(convention.mark === ',' ? 'holdings.amount_not_comma' : 'holdings.amount_not_point') };
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
  const hint = dateHint(t);
  return { error: 'not a date as YYYY-MM-DD', reason: hint ? rowReason('holdings.date_form_hint', { hint }) : undefined };
}

/**
 * What to write instead of a date that is not YYYY-MM-DD or does not exist: "31/12/2023" can only
 * be 2023-12-31; "01/02/2023" is 1 February or January 2, so both are offered; "31/02/2025" and
 * "2025-02-31" are no day at all, so the month's last day is offered, never a day that does not
 * exist. Never read: the user chooses.
 */
export function dateHint(text: string): RowReason | undefined {
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
  if (dayFirst && monthFirst && dayFirst !== monthFirst) return rowReason('holdings.hint_day_or_month_first', { dayFirst, monthFirst });
  const only = dayFirst ?? monthFirst;
  if (only) return rowReason('holdings.hint_write', { date: only });
  return pastMonthEnd(year, b, a) ?? pastMonthEnd(year, a, b);
}

/** The hint in English, for what has no row (the run's --as-of, reports/config.ts). */
export function isoDateHint(text: string): string | undefined {
  const hint = dateHint(text);
  return hint && englishReason(hint);
}

const isoOf = (year: number, month: number, day: number) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * "there is no 31 February 2025 (it has 28 days): …" for a day past its month's last; undefined for
 * any other date. Day, month and year go as text (a number argument would be grouped: "2,025"); the
 * month's name is the catalogue's (a select on its number), as no Intl date formats a day that is not.
 */
function pastMonthEnd(year: number, month: number, day: number): RowReason | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day <= last) return undefined;
  return rowReason('holdings.hint_no_such_day', { day: String(day), month: String(month), year: String(year), last: String(last), lastDate: isoOf(year, month, last) });
}

/** Why a YYYY-MM-DD `date` read from `field` is no day: with what to write instead where there is a hint. */
export function notADay(field: string, date: string): RowReason {
  const hint = dateHint(date);
  return hint ? rowReason('holdings.date_exists_hint', { field, hint }) : rowReason('holdings.date_exists', { field });
}
