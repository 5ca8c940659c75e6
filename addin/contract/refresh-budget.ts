import type { TierName } from '../../src/wire';

/**
 * `GET /addin/budget`: what the pane needs to say what a refresh will cost before it starts —
 * the account's pace and what is left of today's budget, as the host's shared rate gate sees it.
 */
export interface AccountBudget {
  tier: TierName | 'unknown';
  /** Calls per minute window, and the window's length (60,000 ms unless the host is configured otherwise). */
  per_minute: number | null;
  minute_ms: number;
  /** Time between two calls at the account's pace (the gate spreads a window's budget evenly). */
  pace_ms: number | null;
  /** The host's last observed round trip to the service. */
  round_trip_ms: number | null;
  day_limit: number | null;
  day_remaining: number | null;
  day_resets_at: string | null;
  /** What this user may still cause today when the host caps users (ADDIN_USER_DAILY_CAP); null without a cap. */
  user_day_remaining: number | null;
  /** Items per batch call. */
  batch_size: number;
}
