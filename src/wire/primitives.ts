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
export const Money = z.number().finite();
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

export const MAX_BATCH = 50;
