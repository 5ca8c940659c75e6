import { DatabaseError, finishRun, HistoryDatabase, monthEndHoldings, monthEnds, recordMonthEnd, recordRun, underInsuredSince, type HoldingValuation, type MonthEndInput, type MonthEndSummary, type RunInfo } from '../../src/db';
import { DEFAULT_DB_WAIT_SECONDS } from '../history/database-target';
import { FLOW_DIRECTION } from '../../src/ledger';
import type { ValuePoint } from '../../src/performance';
import type { HistoryInput } from '../build/history';
import { FROM_HISTORY_DATABASE, PREVIOUS_REPORT, THIS_REPORT_ALONE } from '../build/performance';
import type { PreviousRun } from '../build/previous';
import type { JobSettings } from '../config';
import type { ReportData } from '../report-data';
import { UsageError } from './exit-codes';
import type { PortfolioLedger } from './run-inputs';

/**
 * The run's side of the history database (issue 23): what earlier month-ends it holds for a
 * portfolio, and this month-end recorded once its report is built. The database is held only
 * while it is read and while it is written (issue 34): `read` takes what the portfolios need in
 * one opening, `flush` records what is waiting in another, and in between another process may
 * have it. A month recorded twice replaces, never duplicates.
 */
export class HistoryStore {
  private runId: number | undefined;
  private readonly known = new Map<string, MonthEndSummary[]>();
  /** Per portfolio, each holding's value at its latest month-end before the as-of date read for (the month column's previous values). */
  private readonly previousHoldings = new Map<string, { asOf: string; currency: string; holdings: { asset_id: string; current_value: number }[] }>();
  /** Per portfolio, per asset id: since when under-insured, up to the latest month-end before the as-of date read for (issue 37). */
  private readonly underInsured = new Map<string, Map<string, string>>();
  private pending: PendingMonthEnd[] = [];
  private failures: string[] = [];
  private flushing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: HistoryDatabase,
    private readonly run: RunInfo,
  ) {}

  /**
   * The database the settings name, opened (it is created and migrated if new) for this run's
   * first reading: the portfolios' recorded month-ends and the run's own row. Undefined when
   * history is off. A database that cannot be opened stops the run before any call is spent
   * (UsageError, exit 2), naming it without a password.
   */
  static async open(db: JobSettings['db'], run: RunInfo, log: (line: string) => void, portfolios: readonly string[] = [], asOf?: string, shared?: HistoryDatabase): Promise<HistoryStore | undefined> {
    if (!db) {
      log('History database: off (no month-end is recorded; the periods rest on --previous alone).');
      return undefined;
    }
    const command = run.command.split(' ').slice(0, 2).join(' ');
    const store = new HistoryStore(shared ?? new HistoryDatabase(db.target, { waitMs: db.waitMs ?? DEFAULT_DB_WAIT_SECONDS * 1000, onWait: log, command }), run);
    try {
      await store.read(portfolios, asOf);
    } catch (e) {
      if (e instanceof DatabaseError) throw new UsageError(`${e.message}${db.from === 'default' ? ' (the default history database; choose another with --db FOLDER or --db postgres://…, or --db off)' : ''}`);
      throw e;
    }
    log(`History database: ${store.db.where}${store.db.kind === 'pglite' ? ' (embedded)' : ''}${db.from === 'default' ? '; --db chooses another' : ''}.`);
    return store;
  }

  /**
   * Reads the portfolios' recorded month-ends in one opening (and records the run, the first
   * time); with `asOf`, also each holding's value at each portfolio's latest month-end before it.
   */
  async read(portfolios: readonly string[], asOf?: string): Promise<void> {
    await this.db.use(async (db) => {
      this.runId ??= await recordRun(db, this.run);
      for (const name of portfolios) {
        const all = await monthEnds(db, name);
        this.known.set(name, all);
        if (asOf !== undefined) this.underInsured.set(name, await underInsuredSince(db, name, asOf));
        const latest = asOf === undefined ? undefined : all.filter((m) => m.asOf < asOf).at(-1);
        if (!latest) continue;
        const held = await monthEndHoldings(db, name, latest.asOf);
        this.previousHoldings.set(name, {
          asOf: latest.asOf,
          currency: latest.currency,
          holdings: held.filter((h) => h.currency === latest.currency && h.assetId !== undefined).map((h) => ({ asset_id: h.assetId!, current_value: h.valueMid })),
        });
      }
    });
  }

  /** Each holding's value recorded at `portfolio`'s month-end `asOf` in `currency`, as read; [] when not read or none. */
  holdingsAt(portfolio: string, asOf: string, currency: string): { asset_id: string; current_value: number }[] {
    const p = this.previousHoldings.get(portfolio);
    return p && p.asOf === asOf && p.currency === currency ? p.holdings : [];
  }

  /** Per asset id, the first month-end of its unbroken under-insured run up to the latest before the as-of date (as read). */
  underInsuredSince(portfolio: string): ReadonlyMap<string, string> {
    return this.underInsured.get(portfolio) ?? new Map();
  }

  /** Whether `portfolio`'s month-end `asOf` in `currency` is in the database as read (not filled from --previous). */
  recordedInDatabase(portfolio: string, asOf: string, currency: string): boolean {
    return (this.known.get(portfolio) ?? []).some((m) => m.asOf === asOf && m.currency === currency);
  }

  /**
   * The values recorded for `portfolio` before `asOf` in `currency`, earliest first (as read);
   * the previous report's value fills its month-end when the database does not hold it.
   * Month-ends recorded in another currency are left out (figures in two currencies are not one
   * series) and said.
   */
  recorded(portfolio: string, asOf: string, currency: string, previous: PreviousRun | undefined, log: (line: string) => void): ValuePoint[] {
    const all = (this.known.get(portfolio) ?? []).filter((m) => m.asOf < asOf);
    const other = all.filter((m) => m.currency !== currency);
    if (other.length > 0) log(`Note: ${other.length} month-end${other.length === 1 ? '' : 's'} of "${portfolio}" recorded in ${[...new Set(other.map((m) => m.currency))].join(', ')} left out of its ${currency} history.`);
    return withPrevious(all.filter((m) => m.currency === currency).map((m) => ({ asOf: m.asOf, value: m.value })), portfolio, asOf, currency, previous);
  }

  /**
   * Keeps the portfolio's month-end from its report to record at the next flush: the value, the
   * month's net flows (its transactions this period, money in less money out, as the report
   * shows them), each valued holding and the ledger it was computed from. Not recorded when a
   * holding was not valued (the value would be short, and a later month would measure against
   * it): said instead.
   */
  record(report: ReportData, ledger: PortfolioLedger, log: (line: string) => void): void {
    const name = report.cover.portfolio_name;
    const { not_valued_count, carried_over_count } = report.summary.coverage;
    if (not_valued_count + carried_over_count > 0) {
      log(`${name}: its ${report.cover.as_of} month-end is not recorded in the history database, as not every holding was valued; run again (--resume) to record it.`);
      return;
    }
    const reviewed = new Map((report.insurance?.items ?? []).map((i) => [i.row, i]));
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
      // The cover and its status at this month-end (issue 37); absent without a review.
      ...(reviewed.get(h.row)?.insured_value != null ? { insuredValue: reviewed.get(h.row)!.insured_value! } : {}),
      ...(reviewed.has(h.row) ? { insuranceStatus: reviewed.get(h.row)!.status } : {}),
    }));
    const netFlows = (report.history?.transactions ?? []).reduce((s, t) => s + (FLOW_DIRECTION[t.type] === 'in' ? t.amount : -t.amount), 0);
    this.pending.push({ name, input: { portfolio: name, asOf: report.cover.as_of, currency: report.cover.currency, value: report.summary.current_value, netFlows, holdings, ledger: ledger.entries } });
  }

  /**
   * Records the month-ends waiting, in one opening (each its own transaction); one that fails is
   * kept as a failure line, the others recorded. `finish` also marks the run finished.
   */
  flush(finish = false): Promise<void> {
    const next = this.flushing.then(async () => {
      const batch = this.pending.splice(0);
      if (batch.length === 0 && !finish) return;
      try {
        await this.db.use(async (db) => {
          this.runId ??= await recordRun(db, this.run);
          for (const p of batch) {
            await recordMonthEnd(db, { ...p.input, run: this.runId }).catch((e: unknown) => {
              this.failures.push(`${p.name}: its month-end could not be recorded in the history database: ${e instanceof Error ? e.message : String(e)}`);
            });
          }
          if (finish) await finishRun(db, this.runId).catch(() => {});
        });
      } catch (e) {
        // The database could not be had (held past --db-wait, or gone): every month-end of the batch is said, not lost silently.
        for (const p of batch) this.failures.push(`${p.name}: its month-end could not be recorded in the history database: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
    this.flushing = next;
    return next;
  }

  /** The month-ends that failed to record so far, one line each (and forgets them). */
  takeFailures(): string[] {
    return this.failures.splice(0);
  }

  /**
   * Records what is waiting, marks the run finished and lets the database go; the month-ends that
   * failed to record, one line each. `finish: false` (a worker, whose every job's flush marks the
   * run): the database is opened only when something is still waiting, so a stopping worker does
   * not wait for an embedded folder.
   */
  async close(options: { finish?: boolean } = {}): Promise<string[]> {
    const finish = options.finish ?? true;
    if (finish || this.pending.length > 0) await this.flush(finish);
    await this.db.close();
    return this.failures;
  }
}

interface PendingMonthEnd {
  name: string;
  input: Omit<MonthEndInput, 'run'>;
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
 * report alone; and where it came from, in words.
 */
export async function portfolioPast(
  history: HistoryStore | undefined,
  ledger: PortfolioLedger,
  at: { portfolio: string; asOf: string; currency: string },
  previous: PreviousRun | undefined,
  log: (line: string) => void,
): Promise<HistoryInput> {
  const { portfolio, asOf, currency } = at;
  const recorded = history ? history.recorded(portfolio, asOf, currency, previous, log) : withPrevious([], portfolio, asOf, currency, previous);
  const fromDb = history ? recorded.filter((p) => history.recordedInDatabase(portfolio, p.asOf, currency)) : [];
  const latest = recorded.at(-1);
  const dbHoldings = latest && history && fromDb.some((p) => p.asOf === latest.asOf) ? history.holdingsAt(portfolio, latest.asOf, currency) : [];
  const report = previous?.byPortfolio.get(portfolio);
  const holdings = dbHoldings.length > 0 ? dbHoldings : report && latest && report.as_of === latest.asOf && (report.currency ?? currency) === currency ? report.holdings : undefined;
  const usedPrevious = recorded.length > fromDb.length || (holdings !== undefined && holdings !== dbHoldings);
  const source =
    fromDb.length > 0 ? `${FROM_HISTORY_DATABASE}${usedPrevious ? ` and ${PREVIOUS_REPORT}` : ''}` : usedPrevious ? PREVIOUS_REPORT : THIS_REPORT_ALONE;
  return {
    ledger,
    recorded,
    source,
    ...(latest && holdings ? { previousHoldings: { asOf: latest.asOf, holdings } } : {}),
    ...(history ? { underInsuredSince: history.underInsuredSince(portfolio) } : {}),
  };
}
