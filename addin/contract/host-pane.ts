import type { TierName } from '../../src/wire';

/**
 * The messages between the add-in host (addin/server) and the browser code (addin/src): one
 * contract both sides import, so neither reaches into the other's folder.
 */

/** The formats a report can be exported in from the task pane: the report job's own list. */
export { REPORT_FORMATS, type ReportFormat } from '../../src/report-formats';

/** `GET /addin/status`: which service, which tier, and the budget the host's shared rate gate sees. */
export interface ConnectionStatus {
  service: string;
  sandbox: boolean;
  connected: boolean;
  tier: TierName | 'unknown';
  minute_limit: number | null;
  minute_remaining: number | null;
  day_limit: number | null;
  day_remaining: number | null;
  resets_at: string | null;
  /** Why the service could not be reached, when it could not. */
  problem?: string;
}
