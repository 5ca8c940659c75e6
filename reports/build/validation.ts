import type { Holding, ReportSummary } from '../report-data';
import type { Translator } from '../../src/i18n';
import { percentOf, sum } from './figures';

/**
 * Below this share of the value market validated (percent), the summary page says which holdings
 * carry the rest (`--validated-warning`, `validated_warning` in the config).
 */
export const DEFAULT_VALIDATED_WARNING_PERCENT = 80;

/** How many of the largest holdings not market validated the warning names: enough to show where the value is, short enough to read. */
const NAMED = 3;

/**
 * The share of the portfolio's value that is market validated, and, when it is under the
 * threshold, the plain sentence the summary page prints. By value, not by count: 3 of 50
 * valuations not validated can be 96 % of the value, and a count hides that (issue 27).
 */
export function validationByValue(rows: readonly Holding[], thresholdPercent: number, tr: Translator): Pick<ReportSummary, 'market_validated_percent' | 'validation_warning'> {
  const total = sum(rows.map((h) => h.current_value));
  // Bounded: summed in another order than the total, the validated part may pass it by a rounding error.
  const validated = Math.min(100, percentOf(sum(rows.filter((h) => h.market_validated).map((h) => h.current_value)), total));
  const rest = rows.filter((h) => !h.market_validated && h.current_value > 0);
  if (rows.length === 0 || rest.length === 0 || validated >= thresholdPercent) return { market_validated_percent: validated, validation_warning: null };
  // Largest first; input order breaks ties, so the sentence is the same on every run.
  const named = rest
    .map((h, i) => ({ h, i }))
    .sort((a, b) => b.h.current_value - a.h.current_value || a.i - b.i)
    .slice(0, NAMED)
    .map(({ h }) => tr.t('notes.validation_item', { description: h.description, percent: tr.percent(percentOf(h.current_value, total)) }));
  const others = rest.length - named.length;
  return {
    market_validated_percent: validated,
    // Semicolons between the holdings: descriptions carry commas of their own.
    validation_warning: tr.t('notes.validation_warning', { percent: tr.percent(validated), list: named.join('; '), others }),
  };
}
