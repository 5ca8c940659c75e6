/**
 * How the portfolio's value is spread: by segment, and how concentrated it is. Units and `null` as in report-data.ts (money in cover.currency, `*_percent` in percent units).
 */
import type { SegmentId } from '../src/wire';

export interface AllocationRow {
  /** Segment id (open: a segment the service adds later still renders). */
  segment: SegmentId | (string & {});
  /** Display name, e.g. "Luxury Watches". */
  segment_name: string;
  /** Holdings in the segment. */
  asset_count: number;
  /** Sum of mid values in the segment. */
  value: number;
  /** value / summary.current_value × 100. */
  percentage: number;
}

export interface PositionRef {
  /** Input row of the holding (see Holding.row). */
  row: number;
  asset_id: string;
  description: string;
  /** Mid value. */
  value: number;
  /** value / summary.current_value × 100. */
  weight_percent: number;
}

export interface ConcentrationFlag {
  /** What is concentrated. */
  kind: 'single_position' | 'top10' | 'segment';
  /** Sentence for the reader, e.g. "One position is 31.2 % of the portfolio (limit 20 %)". */
  message: string;
}

export interface Concentration {
  /** The largest position by mid value; null for an empty portfolio. */
  largest_position: PositionRef | null;
  /** Share of the ten largest positions in the value, percent. */
  top10_share_percent: number;
  /** Thresholds exceeded (empty when none). */
  flags: ConcentrationFlag[];
}
