import { AREAS } from '../../src/i18n/catalogues';
import { isHouseEnglish, translator, type MessageKey, type Translator } from '../../src/i18n';

/**
 * Enum values as people read them in the xlsx and the PDF: "sell_now" → "Sell now",
 * "monitor_closely" → "Monitor closely", "real_estate" → "Real Estate" (the segment's own name).
 * CSV and JSON keep the codes: they are read by programs, and the schema documents them.
 */
export function readable(code: string): string {
  if (code === '') return code;
  const words = code.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const EN = translator('en');

/** The recommendations are the glossary's words (common area), so every writer says them the same way. */
const COMMON_VALUES: Record<string, MessageKey> = { sell_now: 'common.status_sell_now', monitor_closely: 'common.status_monitor_closely', hold: 'common.status_hold' };

const hasColumnsKey = (name: string) => Object.prototype.hasOwnProperty.call(AREAS.columns.en, name);

/**
 * An enum value (momentum, volume, sentiment, trend, alert type and severity, exit signal, window,
 * recommendation) in the reader's language. The wire's enums are open: a value the catalogue
 * does not know (a newer service's) is shown as `readable` makes it, not as a missing key.
 */
export function valueLabel(code: string, tr: Translator = EN): string {
  const common = COMMON_VALUES[code];
  if (common) return tr.t(common);
  return hasColumnsKey(`v_${code}`) ? tr.t(`columns.v_${code}` as MessageKey) : readable(code);
}

const BENCHMARK_PERIODS: Record<string, MessageKey> = { '1_month': 'columns.period_1m', '3_months': 'columns.period_3m', '6_months': 'columns.period_6m', '1_year': 'common.period_1y', ytd: 'common.period_ytd' };

/** A benchmark comparison's period in the reader's language; one the catalogue lacks keeps the data's label. */
export const benchmarkPeriodLabel = (period: string, label: string, tr: Translator = EN): string => (BENCHMARK_PERIODS[period] ? tr.t(BENCHMARK_PERIODS[period]) : label);

/** A benchmark's name in the reader's language; one the catalogue lacks keeps the data's name. */
export const benchmarkName = (id: string, name: string, tr: Translator = EN): string => (hasColumnsKey(`bm_${id}`) ? tr.t(`columns.bm_${id}` as MessageKey) : name);

/**
 * A date inside a sentence or label: the locale's long or short form through Intl (en-GB's too),
 * except in the house English (`en`), which keeps the ISO dates it has always printed there, and
 * the pseudo-locale, which formats as that English does (an Intl month name would be the one
 * unaccented word of its text).
 */
export const textDate = (tr: Translator, iso: string, form: 'date' | 'shortDate' = 'date'): string => (isHouseEnglish(tr.lang) ? iso : tr[form](iso));
