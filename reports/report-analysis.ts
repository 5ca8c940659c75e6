/** The projection and exit analysis rows for the largest holdings. Units and `null` as in report-data.ts (money in cover.currency, `*_percent` in percent units). */
/** What a projection row and an exit row say of the asset they are about. */
export interface AnalysedAsset {
  row: number;
  asset_id: string;
  description: string;
  /** Portfolio(s) holding it: one name, or several joined by ", " when a consolidated row groups one asset held in several. */
  portfolio: string;
  /** Holdings the row stands for (more than 1 when one asset held several times is grouped). */
  holding_count: number;
  /** Value the projection or exit analysis starts from. */
  current_value: number;
  confidence: number;
  market_validated: boolean;
}

export interface ProjectionRow extends AnalysedAsset {
  /** Probability-weighted expected ROI per horizon, percent; null when that horizon was not returned. */
  expected_roi_12m_percent: number | null;
  expected_roi_24m_percent: number | null;
  expected_roi_36m_percent: number | null;
  /** Central-scenario value at 36 months (or the longest horizon returned); null when absent. */
  central_value_36m: number | null;
  /** Conservative / optimistic values at the same horizon, for a range. */
  conservative_value_36m: number | null;
  optimistic_value_36m: number | null;
}

export interface ExitRow extends AnalysedAsset {
  /** Timing: signal / optimal_window / recommendation as the service words them (open enums). */
  signal: string;
  optimal_window: string;
  recommendation: string;
  primary_channel: string;
  primary_commission_percent: number;
  primary_estimated_net: number;
  /** "30-60" days. */
  primary_timeline_days: string;
  secondary_channel: string;
  secondary_estimated_net: number;
  /** Hold-12-months alternative: projected ROI, percent. */
  hold_12m_roi_percent: number;
}
