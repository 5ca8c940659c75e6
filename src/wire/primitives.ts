import { z } from 'zod';
import { SEGMENT_IDS } from './segments';

/**
 * Output enums are open: the spec lists only the values it has shown, so a value we have
 * not seen must still parse. The known values are kept for documentation and for the
 * sandbox, which only ever emits known ones.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(known: T) {
  return z.string().min(1).describe(`one of ${known.join(', ')} (others may appear)`) as unknown as z.ZodType<
    T[number] | (string & {})
  >;
}

export const SegmentIdSchema = z.enum(SEGMENT_IDS);
/** A segment in a response: any string, so a future eleventh segment does not break a client. */
export const SegmentOut = openEnum(SEGMENT_IDS);

export const CONDITIONS = ['excellent', 'very_good', 'good', 'fair'] as const;
export const ConditionSchema = z.enum(CONDITIONS);

export const CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
export const CurrencySchema = z.enum(CURRENCIES);
export type Currency = (typeof CURRENCIES)[number];

export const MOMENTUM_VALUES = ['positive', 'neutral', 'negative'] as const;
export const Momentum = openEnum(MOMENTUM_VALUES);

export const Timestamp = z.iso.datetime({ offset: true });
/** Money in a response: any finite number. */
export const Money = z.number().finite();

/**
 * The largest amount a request may carry, in its currency: ten billion, above any price ever
 * paid for one asset, and small enough that a portfolio of 1,000 such lines still sums exactly
 * in cents (10¹⁵ < 2⁵³) and every projection stays finite (docs/decisions.md).
 */
export const MAX_MONEY = 10_000_000_000;
/** An amount a request carries: 0 to MAX_MONEY (a purchase price may be 0: a gift or an inheritance). */
export const MoneyIn = z.number().min(0).max(MAX_MONEY);
/** The smallest value worth analysing: one cent. Less rounds to 0 in every answer, and an ROI against 0 is undefined. */
export const MIN_ANALYSED_MONEY = 0.01;
/** A value to analyse: at least a cent (a projection or exit from nothing has no meaning), at most MAX_MONEY. */
export const PositiveMoneyIn = z.number().min(MIN_ANALYSED_MONEY).max(MAX_MONEY);

/**
 * C0 controls (NUL, TAB, LF, CR, ESC…), DEL and C1 controls. Text carrying them is refused,
 * not stripped: a name that changes silently is worse than a clear 400, and stored controls
 * would later forge log lines or break files (docs/decisions.md).
 */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** "U+202E": how a refusal names the character it found. */
const codePointOf = (m: RegExpExecArray) => `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Where the first control character of a text is, if any. */
export function findControlCharacter(text: string): { index: number; codePoint: string } | undefined {
  const m = CONTROL_CHARACTER.exec(text);
  if (!m) return undefined;
  return { index: m.index, codePoint: codePointOf(m) };
}

/**
 * Bidirectional text controls (LRE…RLO, LRI…PDI, LRM/RLM, ALM): invisible, they reorder what a
 * name shows (a right-to-left override, U+202E, before "fdp.exe" shows it as "exe.pdf"), so a name
 * carrying one is refused like a control character (docs/decisions.md).
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
/** Half a UTF-16 surrogate pair: not a character at all, and not encodable as UTF-8 (it would be stored and echoed as U+FFFD or break a file). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a name or free text may not hold, the first found, in the words of its refusal. */
function unsafeTextProblem(text: string): { kind: string; message: string; index: number; codePoint: string } | undefined {
  const control = findControlCharacter(text);
  if (control) return { kind: 'control_character', ...control, message: `must not contain control characters (${control.codePoint} at character ${control.index + 1})` };
  for (const [kind, pattern, what] of [
    ['bidi_control', BIDI_CONTROL, 'bidirectional text controls'],
    ['lone_surrogate', LONE_SURROGATE, 'lone surrogates, which are not characters'],
  ] as const) {
    const m = pattern.exec(text);
    if (m) return { kind, index: m.index, codePoint: codePointOf(m), message: `must not contain ${what} (${codePointOf(m)} at character ${m.index + 1})` };
  }
  return undefined;
}

/** A string without control characters, bidirectional controls or lone surrogates (checked before any trimming, so a trailing CR/LF is refused too). */
export function plainString() {
  return z.string().check((ctx) => {
    const found = unsafeTextProblem(ctx.value);
    if (found) ctx.issues.push({ code: 'custom', input: ctx.value, params: { kind: found.kind, index: found.index, codePoint: found.codePoint }, message: found.message });
  });
}

/** Text a person typed: no control characters, trimmed, 1 to `max` characters. */
export const PlainText = (max: number) => plainString().trim().min(1).max(max);
export const Ratio = z.number().min(0).max(1);
export const Score100 = z.number().int().min(0).max(100);

/** "+4.2%", "-0.8%", "+0.0%". */
export const SIGNED_PERCENT_PATTERN = /^[+-]\d+(\.\d+)?%$/;
export const SignedPercent = z.string().regex(/^[+\-\u2212]?\d+(\.\d+)?%$/, 'a signed percent such as +4.2%');

export function formatSignedPercent(value: number, decimals = 1): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '+';
  return `${sign}${fixed}%`;
}

/** "+4.2%" -> 4.2; undefined when the text is not a percent. */
export function parseSignedPercent(text: string): number | undefined {
  const m = /^([+\-\u2212]?)(\d+(?:\.\d+)?)%$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[2]);
  return m[1] === '-' || m[1] === '\u2212' ? -n : n;
}

/** A calendar date YYYY-MM-DD that exists (no 2023-02-30). */
export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine(isRealDate, 'a date that exists, as YYYY-MM-DD');

export function isRealDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * The earliest purchase date the service takes (docs/decisions.md): older purchases carry no
 * usable price, and a year such as 1000 is a typing error.
 */
export const PURCHASE_DATE_FLOOR = '1900-01-01';

/**
 * The latest purchase date accepted on a given day: that UTC day plus one, because a buyer
 * east of Greenwich (up to UTC+14) is already on the next calendar day.
 */
export function latestPurchaseDate(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().slice(0, 10);
}

/** Why a purchase date is out of range on a given day, or undefined. */
export function purchaseDateProblem(date: string, now: Date): string | undefined {
  if (date < PURCHASE_DATE_FLOOR) return `is before ${PURCHASE_DATE_FLOOR}, the earliest purchase date accepted`;
  const latest = latestPurchaseDate(now);
  if (date > latest) return `is in the future; the latest purchase date accepted today is ${latest}`;
  return undefined;
}

/** A purchase date: a real day from PURCHASE_DATE_FLOOR to today (by this machine's clock; the sandbox also checks its own). */
export const PurchaseDate = CalendarDate.check((ctx) => {
  const problem = purchaseDateProblem(ctx.value, new Date());
  if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, params: { kind: 'date_range' }, message: `${ctx.value} ${problem}` });
});

export const MAX_BATCH = 50;
