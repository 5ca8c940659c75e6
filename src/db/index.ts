/**
 * The history database (issue 23): runs, portfolios, month-end valuations and the ledgers they
 * were computed from, in PGlite (embedded, a folder) or a PostgreSQL server, one schema and the
 * same SQL on both. See docs/decisions.md, "Portfolio history and performance (issue 23)".
 */
export { openDatabase, close, type Database, type DatabaseUser, type OpenOptions } from './open';
export { HistoryDatabase } from './history-database';
export { pingDatabase } from './ping';
export { defaultDatabasePath, holdsDatabase, isDatabaseOff, parseTarget, type DatabaseTarget } from './paths';
export { recordRun, finishRun, recordMonthEnd } from './record';
export { portfolios, monthEnds, monthEndHoldings, ledger, run, monthEndRecords, portfolioSpans, assetHistory, underInsuredSince } from './queries';
export { appliedMigrations, MIGRATIONS } from './migrations';
export { recordApprovals, approvals, type ApprovalInput, type RecordedApproval } from './approvals';
export { DatabaseError, DatabaseBusyError, redactUrl, serviceUrlWithoutCredentials } from './errors';
export type { RunInfo, HoldingValuation, MonthEndInput, MonthEndSummary, MonthEndRecord, PortfolioSpan, AssetMonthEnd, RecordedMonthEnd, RecordedRun } from './types';
