/**
 * What `history import` accepts as values before recording them (issue 35): a report's JSON is
 * data from a folder, and what is recorded is served to Excel (`SVC.HISTORY`) and to later
 * reports. Every recorded amount finite, not negative and below a bound no luxury portfolio
 * reaches; quantities positive; dates that exist, an as-of day in a plausible range and no
 * purchase after it. The first value out of range is named by its field, without quoting it whole.
 */
import type { ImportedReport } from './read-reports';

/** Far beyond any portfolio's value in any currency the service quotes (10^15 JPY is about 6 billion USD). */
export const MAX_AMOUNT = 1e15;
const EARLIEST_AS_OF = '1990-01-01';
const LATEST_AS_OF = '2100-12-31';
const EARLIEST_PURCHASE = '1900-01-01';

/** Why an amount is refused, or undefined. */
function amountProblem(v: number | null | undefined, field: string): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (!Number.isFinite(v)) return `${field} is not a finite number`;
  if (v < 0) return `${field} is negative (${v.toPrecision(3)}); amounts are never below 0`;
  if (v > MAX_AMOUNT) return `${field} is ${v.toPrecision(3)}, above the ${MAX_AMOUNT.toExponential()} any portfolio reaches`;
  return undefined;
}

/** The first value of the report out of range, in words, or undefined when every recorded value is sane. */
export function valueProblem(r: ImportedReport): string | undefined {
  if (r.as_of < EARLIEST_AS_OF || r.as_of > LATEST_AS_OF) return `as_of ${r.as_of} is outside ${EARLIEST_AS_OF} to ${LATEST_AS_OF}`;
  const summary = amountProblem(r.summary.current_value, 'summary.current_value');
  if (summary) return summary;
  for (const [i, h] of r.holdings.entries()) {
    const at = `holdings.${i} (row ${h.row})`;
    if (!Number.isFinite(h.quantity) || h.quantity <= 0) return `${at}.quantity must be a positive number`;
    for (const [field, v] of [['purchase_price', h.purchase_price], ['current_value', h.current_value], ['value_low', h.value_low], ['value_high', h.value_high]] as const) {
      const problem = amountProblem(v, `${at}.${field}`);
      if (problem) return problem;
    }
    if (h.confidence != null && (!Number.isFinite(h.confidence) || h.confidence < 0 || h.confidence > 1)) return `${at}.confidence must be between 0 and 1`;
    if (h.purchase_date < EARLIEST_PURCHASE || h.purchase_date > r.as_of) return `${at}.purchase_date ${h.purchase_date} is not between ${EARLIEST_PURCHASE} and the report's as_of ${r.as_of}`;
  }
  return undefined;
}
