import { z } from 'zod';
import { CURRENCIES, type TierName } from '../../src/wire';
import { REPORT_FORMATS } from '../../src/report-formats';

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
  /** The limits in force and where they came from (the service's statement, the tier's figure, a ceiling), for people. */
  limits_in_force: string;
  /** Why the service could not be reached, when it could not. */
  problem?: string;
  /** The signed-in user asking (ADDIN_AUTH=entra; null without sign-in): their calls waiting for their turn (fair share) and today's count. */
  user?: { name: string | null; waiting: number; calls_today: number; daily_cap: number | null } | null;
}

/** Excel's own limits: a cell holds at most 32,767 characters, a sheet name 31, a sheet 1,048,576 rows. */
const EXCEL_CELL_CHARS = 32_767;
const EXCEL_SHEET_NAME_CHARS = 31;
const EXCEL_ROWS = 1_048_576;
/** A selection larger than this is a mistake, not a portfolio (the report job's portfolios hold up to 10,000 holdings). */
export const MAX_EXPORT_ROWS = 10_001;
export const MAX_EXPORT_COLUMNS = 100;

/** What a cell of Excel's `Range.values` can be: text, a number, TRUE/FALSE, or empty. */
const GridCell = z.union([z.string().max(EXCEL_CELL_CHARS), z.number(), z.boolean(), z.null()], { error: 'a cell must be text, a number, TRUE/FALSE or empty' });

/** `POST /addin/report`: the selected table as Excel gives it, header row first. */
export const ReportExportRequest = z.strictObject({
  format: z.enum(REPORT_FORMATS),
  portfolio_name: z.string().max(200).optional(),
  currency: z.enum(CURRENCIES).optional(),
  sheet: z.string().max(EXCEL_SHEET_NAME_CHARS).optional(),
  /** Sheet row number of the header row, so errors name the rows the user sees. */
  first_row: z.number().int().min(1).max(EXCEL_ROWS).optional(),
  grid: z.array(z.array(GridCell).max(MAX_EXPORT_COLUMNS)).min(2, { error: 'grid must be the selected table: a header row and at least one holding' }).max(MAX_EXPORT_ROWS),
});
export type ReportExportRequest = z.infer<typeof ReportExportRequest>;
