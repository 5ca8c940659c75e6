import { DatabaseError, finishRun, monthEndHoldings, monthEnds, openDatabase, recordMonthEnd, recordRun, close, type Database, type HoldingValuation, type RunInfo } from '../../src/db';
import { FLOW_DIRECTION } from '../../src/ledger';
import type { ValuePoint } from '../../src/performance';
import type { HistoryInput } from '../build/history';
import { THIS_REPORT_ALONE } from '../build/performance';
import type { PreviousRun } from '../build/previous';
import type { JobSettings } from '../config';
import type { ReportData } from '../report-data';
import { UsageError } from './exit-codes';
import type { PortfolioLedger } from './run-inputs';

/**
 * The run's side of the history database (issue 23): what earlier month-ends it holds for a
 * portfolio, and this month-end recorded once its report is built. Writes go one after another
 * (the embedded database is one connection; on a server each is its own transaction, and a
 * month recorded twice replaces, never duplicates).
 */
export class HistoryStore {
  private queue: Promise<unknown> = Promise.resolve();
  private failures: string[] = [];

  private constructor(
    private readonly db: Database,
    private readonly runId: number,
  ) {}

  /**
   * Opens the database the settings name (it is created and migrated if new) and records the
   * run. Undefined when history is off. A database that cannot be opened stops the run before
   * any call is spent (UsageError, exit 2), naming it without a password.
   */
  static async open(db: JobSettings['db'], run: RunInfo, log: (line: string) => void): Promise<HistoryStore | undefined> {
    if (!db) {
      log('History database: off (no month-end is recorded; the periods rest on --previous alone).');
      return undefined;
    }
    let opened: Database;
    try {
      opened = await openDatabase(db.target);
    } catch (e) {
      if (e instanceof DatabaseError) throw new UsageError(`${e.message}${db.from === 'default' ? ' (the default history database; choose another with --db FOLDER or --db postgres://…, or --db off)' : ''}`);
      throw e;
    }
    log(`History database: ${opened.where}${opened.kind === 'pglite' ? ' (embedded)' : ''}${db.from === 'default' ? '; --db chooses another' : ''}.`);
    return new HistoryStore(opened, await recordRun(opened, run));
  }

  /**
   * The values recorded for `portfolio` before `asOf` in `currency`, earliest first; the previous
   * report's value fills its month-end when the database does not hold it. Month-ends recorded in
   * another currency are left out (figures in two currencies are not one series) and said.
   */
  async recorded(portfolio: string, asOf: string, currency: string, previous: PreviousRun | undefined, log: (line: string) => void): Promise<ValuePoint[]> {
    const all = (await monthEnds(this.db, portfolio)).filter((m) => m.asOf < asOf);
    const other = all.filter((m) => m.currency !== currency);
    if (other.length > 0) log(`Note: ${other.length} month-end${other.length === 1 ? '' : 's'} of "${portfolio}" recorded in ${[...new Set(other.map((m) => m.currency))].join(', ')} left out of its ${currency} history.`);
    return withPrevious(all.filter((m) => m.currency === currency).map((m) => ({ asOf: m.asOf, value: m.value })), portfolio, asOf, currency, previous);
  }

  /** Each holding's value recorded at `portfolio`'s month-end `asOf` in `currency` (the month column's previous values); [] when none. */
  async holdingsAt(portfolio: string, asOf: string, currency: string): Promise<{ asset_id: string; current_value: number }[]> {
    const held = await monthEndHoldings(this.db, portfolio, asOf);
    return held.filter((h) => h.currency === currency && h.assetId !== undefined).map((h) => ({ asset_id: h.assetId!, current_value: h.valueMid }));
  }

  /**
   * Records the portfolio's month-end from its report: the value, the month's net flows (its
   * transactions this period, money in less money out, as the report shows them), each
   * valued holding and the ledger it was computed from. Not recorded when a holding was not
   * valued (the value would be short, and a later month would measure against it): said instead.
   */
  record(report: ReportData, ledger: PortfolioLedger, log: (line: string) => void): Promise<void> {
    const name = report.cover.portfolio_name;
    const { not_valued_count, carried_over_count } = report.summary.coverage;
    if (not_valued_count + carried_over_count > 0) {
      log(`${name}: its ${report.cover.as_of} month-end is not recorded in the history database, as not every holding was valued; run again (--resume) to record it.`);
      return Promise.resolve();
    }
    const holdings: HoldingValuation[] = [...report.holdings].map((h) => ({
      row: h.row,
      assetId: h.asset_id,
      description: h.description,
      quantity: h.quantity,
      valueMid: h.current_value,
      valueLow: h.value_low,
      valueHigh: h.value_high,
      currency: report.cover.currency,
      confidence: h.confidence,
      marketValidated: h.market_validated,
    }));
    const netFlows = (report.history?.transactions ?? []).reduce((s, t) => s + (FLOW_DIRECTION[t.type] === 'in' ? t.amount : -t.amount), 0);
    const recorded = this.queue.then(() =>
      recordMonthEnd(this.db, { run: this.runId, portfolio: name, asOf: report.cover.as_of, currency: report.cover.currency, value: report.summary.current_value, netFlows, holdings, ledger: ledger.entries }).catch((e: unknown) => {
        this.failures.push(`${name}: its month-end could not be recorded in the history database: ${e instanceof Error ? e.message : String(e)}`);
      }),
    );
    this.queue = recorded;
    return recorded.then(() => {});
  }

  /** The month-ends that failed to record so far, one line each (and forgets them). */
  takeFailures(): string[] {
    return this.failures.splice(0);
  }

  /** Waits for the writes, marks the run finished and closes; the month-ends that failed to record, one line each. */
  async close(): Promise<string[]> {
    await this.queue;
    await finishRun(this.db, this.runId).catch(() => {});
    await close(this.db);
    return this.failures;
  }
}

/** The previous report's value at its month-end, where the database has none for it (--previous keeps working). */
function withPrevious(points: ValuePoint[], portfolio: string, asOf: string, currency: string, previous: PreviousRun | undefined): ValuePoint[] {
  const before = previous?.byPortfolio.get(portfolio);
  if (!before || before.as_of >= asOf || (before.currency !== undefined && before.currency !== currency) || points.some((p) => p.asOf === before.as_of)) return points;
  return [...points, { asOf: before.as_of, value: before.summary.current_value }].sort((a, b) => (a.asOf < b.asOf ? -1 : 1));
}

/**
 * What the run knows of a portfolio's past, for its report's history: the month-ends recorded in
 * the database when there is one (the previous report filling its month-end), else the previous
 * report alone; each holding's value at the latest of them (for the month column), from the
 * database when it recorded it, else from the previous report; and where they came from, in words.
 */
export async function portfolioPast(
  history: HistoryStore | undefined,
  ledger: PortfolioLedger,
  at: { portfolio: string; asOf: string; currency: string },
  previous: PreviousRun | undefined,
  log: (line: string) => void,
): Promise<HistoryInput> {
  const { portfolio, asOf, currency } = at;
  const fromDb = history ? (await history.recorded(portfolio, asOf, currency, undefined, log)).filter((p) => p.asOf < asOf) : [];
  const recorded = withPrevious(fromDb, portfolio, asOf, currency, previous);
  const latest = recorded.at(-1);
  const dbHoldings = latest && history && fromDb.some((p) => p.asOf === latest.asOf) ? await history.holdingsAt(portfolio, latest.asOf, currency) : [];
  const report = previous?.byPortfolio.get(portfolio);
  const holdings = dbHoldings.length > 0 ? dbHoldings : report && latest && report.as_of === latest.asOf && (report.currency ?? currency) === currency ? report.holdings : undefined;
  const usedPrevious = recorded.length > fromDb.length || (holdings !== undefined && holdings !== dbHoldings);
  const source =
    fromDb.length > 0 ? `the firm's history database${usedPrevious ? ' and the previous report (--previous)' : ''}` : usedPrevious ? 'the previous report (--previous)' : THIS_REPORT_ALONE;
  return { ledger, recorded, source, ...(latest && holdings ? { previousHoldings: { asOf: latest.asOf, holdings } } : {}) };
}
