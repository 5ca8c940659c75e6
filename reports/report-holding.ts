/** One row of the portfolio report's holdings table. Units and `null` as in report-data.ts (money in cover.currency, `*_percent` in percent units). */
import type { SegmentId } from '../src/wire';

export interface Holding {
  /** Row number of the holding in the input file, as the user sees it (errors use the same numbering). */
  row: number;
  /** Service asset id, SVC-…. */
  asset_id: string;
  /** Human description, e.g. "Rolex Submariner 126610LN (2021)". Free text from the input: writers neutralise it. */
  description: string;
  /** Segment id. */
  segment: SegmentId | (string & {});
  /** Number of units held; 1 for single items. Wine counts cases of 12 × 75 cl (see quantity_unit). */
  quantity: number;
  /** What one unit of quantity is, for a reader: "case of 12 × 75 cl", "bottle", "item". */
  quantity_unit: string;
  /** Portfolio the holding belongs to (consolidated reports show it as a column). */
  portfolio: string;
  /** ISO 4217 code the holding was bought in. */
  purchase_currency: string;
  /** Total paid for the holding (all units), in purchase_currency. */
  purchase_price_original: number;
  /** Units of the reporting currency per unit of purchase_currency on the purchase date (1 when they are the same). */
  fx_rate_purchase: number;
  /** The same rate on the as-of date; values are converted at it. */
  fx_rate_as_of: number;
  /** Total paid for the holding (all units), in the reporting currency (at fx_rate_purchase). */
  purchase_price: number;
  /** Purchase date, YYYY-MM-DD. */
  purchase_date: string;
  /** Low estimate of the holding's value (all units). */
  value_low: number;
  /** Mid estimate (all units): the holding's current value. */
  current_value: number;
  /** High estimate (all units). */
  value_high: number;
  /** Valuation confidence, 0..1. */
  confidence: number;
  /** Investment score 0..100. */
  service_score: number;
  /** Trend direction: positive, neutral, negative (open). */
  momentum: string;
  /** (current_value − purchase_price) / purchase_price × 100; null when purchase_price is 0. */
  return_percent: number | null;
  /** Annualised IRR of this holding's purchase and value (its compound annual growth rate); held under a year, its return since purchase, not annualised; null when not computable. */
  money_weighted_return_percent: number | null;
  /** Value after the primary exit channel's commission, where the exit analysis covers the holding; else null. */
  net_realisable_value: number | null;
  /** current_value / summary.current_value × 100. */
  weight_percent: number;
  /** Change of current_value against the previous report; null when the holding was not in it. */
  month_on_month_change: number | null;
  /** That change as percent of the previous value; null when not available. */
  month_on_month_percent: number | null;
  /** The service's market validation flag for this valuation. */
  market_validated: boolean;
}
