import type { ExitStrategy, Performance, Projection } from '../../src/wire';
import type { Section } from '../report-data';

/** One holding's valuation as the report needs it (from a batch item; checkpointed as is). Money is for the whole holding, all units. */
export interface ValuedItem {
  ok: true;
  /**
   * The id the service answered with: every later call (scores, projections, exit, portfolio) and
   * the report's asset_id column use it, not the id spelt locally from the holding's descriptors,
   * which can name another asset. Absent only in checkpoints written before it was kept.
   */
  asset_id?: string;
  low: number | null;
  mid: number;
  high: number | null;
  currency: string;
  confidence: number;
  service_score: number;
  momentum: string | null;
  /** The batch's flag; replaced by the score's own flag when the holding was scored. */
  market_validated: boolean;
  /** Its asset id was not one the service issued, and --allow-unknown-ids valued it from the descriptors instead (said to the analyst). */
  from_descriptors?: true;
}

/** A holding the service would not value: its message names the field and what is allowed. */
export interface FailedItem {
  ok: false;
  field: string;
  message: string;
  /** The service, network or budget failed, not the item: --resume tries it again. */
  transient: boolean;
  /** The service did not issue the holding's asset id (a 404 on asset_id): --allow-unknown-ids values it from its descriptors. */
  unknown_id?: true;
}

export type ItemResult = ValuedItem | FailedItem;

export interface ScoreLite {
  service_score: number;
  momentum: string;
  market_validated: boolean;
}

/** Everything the service told us about one portfolio, index-aligned with its holdings. */
export interface PortfolioResults {
  valuations: (ItemResult | undefined)[];
  scores: (ScoreLite | null | undefined)[];
  performance: Section<Performance>;
  /**
   * For the largest positions (identical holdings together, run/positions.ts); index is the
   * position's first line in the portfolio, and the call was made for all its lines' value.
   */
  projections: Section<{ index: number; projection: Projection }[]>;
  exits: Section<{ index: number; exit: ExitStrategy }[]>;
  /** Job-level problems for this portfolio (budget, an enrichment call that failed). */
  problems: string[];
}
