import { singleLine } from '../../../src/single-line';
import { CURRENCIES, HORIZONS, SCENARIOS, SEGMENT_IDS, URGENCIES, isRealDate, parseSegment, type Currency, type Horizon, type ScenarioName, type SegmentId } from '../../../src/wire';
import { serialToIsoDate } from './excel-dates';
import { InputError, isMissing } from './input-error';
import { addinTranslator } from './display-language';

/** The message of a bad argument in Excel's display language (the argument's name as the function's metadata spells it). */
const say: ReturnType<typeof addinTranslator>['t'] = (key, values) => addinTranslator().t(key, values);

/**
 * Readers for formula arguments. Each names the argument and what it accepts when the
 * value is wrong, because the message is all a spreadsheet user sees of the problem.
 */

export function readText(name: string, value: unknown): string {
  if (isMissing(value)) throw new InputError(name, say('addin.arg_required', { name }));
  if (typeof value !== 'string' && typeof value !== 'number') throw new InputError(name, say('addin.arg_text', { name }));
  // Alt+Enter in the cell a formula reads is formatting: one line, as the holdings files are read.
  return singleLine(String(value));
}

export function readOptionalText(name: string, value: unknown): string | undefined {
  return isMissing(value) ? undefined : readText(name, value);
}

/** One of a fixed list, case- and spacing-insensitive; the default when omitted. */
export function readChoice<const T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T;
export function readChoice<const T extends string>(name: string, value: unknown, allowed: readonly T[]): T;
export function readChoice<const T extends string>(name: string, value: unknown, allowed: readonly T[], fallback?: T): T {
  if (isMissing(value)) {
    if (fallback !== undefined) return fallback;
    throw new InputError(name, say('addin.arg_choice_required', { name, allowed: allowed.join(', ') }), allowed);
  }
  const t = String(value).trim().toLowerCase().replace(/[\s-]+/g, '_');
  const hit = allowed.find((a) => a.toLowerCase() === t);
  if (!hit) throw new InputError(name, say('addin.arg_one_of', { name, allowed: allowed.join(', '), got: String(value) }), allowed);
  return hit;
}

export function readCurrency(name: string, value: unknown): Currency {
  if (isMissing(value)) return 'USD';
  const t = String(value).trim().toUpperCase();
  if (!(CURRENCIES as readonly string[]).includes(t)) {
    throw new InputError(name, say('addin.arg_one_of', { name, allowed: CURRENCIES.join(', '), got: String(value) }), CURRENCIES);
  }
  return t as Currency;
}

export function readSegment(name: string, value: unknown): SegmentId {
  const text = readText(name, value);
  const segment = parseSegment(text);
  if (!segment) throw new InputError(name, say('addin.arg_one_of', { name, allowed: SEGMENT_IDS.join(', '), got: text }), SEGMENT_IDS);
  return segment;
}

export function readHorizon(name: string, value: unknown): Horizon {
  const n = typeof value === 'string' ? Number(value.replace(/\s*(m|months?)$/i, '')) : value;
  if (typeof n !== 'number' || !(HORIZONS as readonly number[]).includes(n)) {
    const allowed = HORIZONS.join(', ');
    throw new InputError(name, isMissing(value) ? say('addin.arg_horizon', { name, allowed }) : say('addin.arg_horizon_got', { name, allowed, got: String(value) }), HORIZONS);
  }
  return n as Horizon;
}

export function readScenario(name: string, value: unknown): ScenarioName {
  return readChoice(name, value, SCENARIOS, 'central');
}

export function readUrgency(name: string, value: unknown): (typeof URGENCIES)[number] {
  return readChoice(name, value, URGENCIES, 'flexible');
}

/** A positive amount, or undefined when omitted (the caller then uses the valuation's mid). */
export function readOptionalAmount(name: string, value: unknown): number | undefined {
  if (isMissing(value)) return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).replace(/[,\s$€£]/g, ''));
  if (!Number.isFinite(n) || n <= 0) throw new InputError(name, say('addin.arg_amount', { name, got: String(value) }));
  return n;
}

export function readOptionalYear(name: string, value: unknown): number | undefined {
  if (isMissing(value)) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1600 || n > 2100) throw new InputError(name, say('addin.arg_year', { name, got: String(value) }));
  return n;
}

export function readBooleanFlag(value: unknown): boolean {
  if (isMissing(value)) return false;
  if (typeof value === 'boolean') return value;
  return ['true', 'yes', '1', 'y'].includes(String(value).trim().toLowerCase());
}

/**
 * An optional date: an Excel date (a serial number, what a cell holding a date or DATE(…) gives)
 * or ISO text YYYY-MM-DD; undefined when omitted. Anything else names the argument and what it takes.
 */
export function readOptionalDate(name: string, value: unknown): string | undefined {
  if (isMissing(value)) return undefined;
  const iso = typeof value === 'number' ? serialToIsoDate(value) : isRealDate(String(value).trim()) ? String(value).trim() : undefined;
  if (iso === undefined) throw new InputError(name, say('addin.arg_date', { name, got: String(value) }));
  return iso;
}
