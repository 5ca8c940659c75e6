/**
 * The market dashboard's data model (reports/dashboard.ts builds it, the dashboard writers
 * render it). Percent, dates and `null` as in report-data.ts.
 */
import type { Brand } from '../src/brand';
import type { SegmentId } from '../src/wire';
import type { Language } from '../src/i18n';
import type { CsvHeaders } from '../src/report-formats';

export interface DashboardSegment {
  segment: SegmentId | (string & {});
  segment_name: string;
  /** From GET /signals: momentum, volume level, sentiment, signal strength 0..1. */
  momentum: string;
  volume: string;
  sentiment: string;
  signal_strength: number;
  /** From GET /signals/{segment} when fetched, else null: price trend and changes in percent. */
  price_trend: string | null;
  change_7d_percent: number | null;
  change_30d_percent: number | null;
  change_90d_percent: number | null;
  transaction_count_30d: number | null;
  sentiment_score: number | null;
}

export interface DashboardMover {
  segment: SegmentId | (string & {});
  brand: string;
  model: string;
  /** 30-day price change, percent. */
  change_30d_percent: number;
}

export interface DashboardAlert {
  id: string;
  type: string;
  severity: string;
  segment: SegmentId | (string & {});
  title: string;
  message: string;
  created_at: string;
  expires_at: string;
}

export interface DashboardData {
  /** Unique id of this dashboard run. */
  report_id: string;
  /** Market date, YYYY-MM-DD. */
  as_of: string;
  generated_at: string;
  sandbox: boolean;
  /** One row per segment, in SEGMENTS order. */
  segments: DashboardSegment[];
  /** Largest 30-day movers across segments, largest absolute change first. */
  top_movers: DashboardMover[];
  /** Alerts active at generated_at. */
  alerts: DashboardAlert[];
  /** The overview's market_validated flag. */
  market_validated: boolean;
  /** Remarks (e.g. "segment detail omitted: rate limit reached"). */
  notes: string[];
  disclaimer: string;
  /** The language of its words (--language, issue 36); absent in dashboards written before: en. */
  language?: Language;
  /** The firm's brand (issue 28) for the PDF and xlsx; absent: the house look. */
  brand?: Brand;
  /** The CSV's header row (--csv-headers); absent: the default (report-data.ts). Never written into the JSON. */
  csv_headers?: CsvHeaders;
}
