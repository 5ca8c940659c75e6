import { holdingAsBuy } from '../../src/ledger/read-ledger';
import type { LedgerProblem } from '../../src/ledger';
import { ledgerFlows, NO_EARLIER_MONTH_END, portfolioPerformance, type DatedFlow, type KeyedValue, type PortfolioPerformance, type RateFunction, type ValuePoint } from '../../src/performance';
import type { PortfolioInput } from '../../src/holdings/types';
import type { Holding } from '../report-data';
import type { BuildContext } from './context';
import { fxRate } from './fx';
import type { PortfolioLedger } from '../run/run-inputs';

/** What the run knows of a portfolio's past, for its report's history (issue 23). */
export interface HistoryInput {
  ledger: PortfolioLedger;
  /** Values recorded at earlier month-ends (reporting currency), from the history database or the previous report. */
  recorded: readonly ValuePoint[];
  /** Where `recorded` came from, in words, for the method text. */
  source: string;
  /** Each holding's value at the latest recorded month-end (from the database, else the previous report), for the month column. */
  previousHoldings?: { asOf: string; holdings: readonly { asset_id: string; current_value: number }[] };
  /**
   * Issue 37, with a history database only: per asset id, the first month-end of its unbroken run
   * of under-insured month-ends up to the latest one recorded (underInsuredSince in src/db).
   */
  underInsuredSince?: ReadonlyMap<string, string>;
}

/** Where the month-end values came from when the history database gave them. */
export const FROM_HISTORY_DATABASE = "the firm's history database";

/** Where the month-end values came from when the previous report (--previous) gave them. */
export const PREVIOUS_REPORT = 'the previous report (--previous)';

/** How `aloneBecause` starts: client-language.ts reads the reason back out of it. */
export const THIS_REPORT_ALONE_PREFIX = 'this report alone (';

/**
 * Where the month-end values came from when none could be had: the report's own figures, and why.
 * Stable English (the JSON's `returns_source`); the method text says it in the client's language.
 */
export const aloneBecause = (why: string) => `${THIS_REPORT_ALONE_PREFIX}${why})`;

/** Where the month-end values came from when nothing earlier was found: the report's own figures. */
export const THIS_REPORT_ALONE = aloneBecause(NO_EARLIER_MONTH_END);

/** A portfolio's performance as the report reads it: the engine's one computation and the flows it rests on. */
export interface PortfolioFigures {
  perf: PortfolioPerformance;
  flows: DatedFlow[];
  /** Ledger rows whose money could not be converted (a missing rate): left out of the flows, said as errors. */
  problems: LedgerProblem[];
  /** Where the earlier values came from, in words. */
  source: string;
}

/**
 * What is known of a portfolio with no ledger and no record (the add-in's export): its holdings
 * as purchases on their dates, nothing recorded before.
 */
export function heldAlone(input: PortfolioInput, currency: string): HistoryInput {
  return { ledger: { entries: input.holdings.map((h) => holdingAsBuy(h, currency)), realisations: [] }, recorded: [], source: THIS_REPORT_ALONE };
}

/** The reason every period and the summary give when today's value is short of a holding. */
export const notEveryHoldingValued = (asOf: string) => `${NOT_EVERY_HOLDING_VALUED_PREFIX}${asOf}, so the portfolio's value that day is not known`;

/** How `notEveryHoldingValued` starts, before its date (client-language.ts). */
export const NOT_EVERY_HOLDING_VALUED_PREFIX = 'not every holding was valued on ';

/**
 * The engine's input from the run's view of a portfolio: the ledger's flows at each day's rate,
 * the recorded month-ends, today's value (unknown when a holding was not valued) and each
 * holding's value today and at the previous month-end.
 */
export function performanceOf(rows: readonly Holding[], complete: boolean, past: HistoryInput, ctx: BuildContext): PortfolioFigures {
  const rate: RateFunction = (currency, date) => fxRate(ctx, currency, ctx.currency, date);
  const { flows, problems } = ledgerFlows(past.ledger.entries, rate);
  const value = rows.reduce((s, h) => s + h.current_value, 0);
  const perf = portfolioPerformance({
    asOf: ctx.asOf,
    value: complete ? value : { unknown: notEveryHoldingValued(ctx.asOf) },
    recorded: past.recorded,
    flows,
    holdings: rows.map(keyedValue),
    ...(past.previousHoldings ? { previousHoldings: { asOf: past.previousHoldings.asOf, holdings: past.previousHoldings.holdings.map(keyedValue) } } : {}),
  });
  return { perf, flows, problems, source: past.source };
}

const keyedValue = (h: { asset_id: string; current_value: number }): KeyedValue => ({ key: h.asset_id, value: h.current_value });

/** Fills each row's month column from the engine's matching (rows in the order the engine was given them). */
export function applyHoldingChanges(rows: Holding[], perf: PortfolioPerformance): void {
  rows.forEach((h, i) => {
    const c = perf.holdingChanges[i];
    h.month_on_month_change = c ? c.change : null;
    h.month_on_month_percent = c ? c.percent : null;
  });
}

/**
 * The firm's portfolios as one (the consolidated report): their flows together, and a value at
 * each month-end every portfolio holding something then has recorded (a portfolio whose first
 * flow is later counts nil). Its money figures are therefore the sums of the portfolios'.
 */
export function combinedPerformance(parts: readonly { figures: PortfolioFigures; recorded: readonly { asOf: string; value: number }[]; rows: readonly Holding[]; complete: boolean }[], ctx: BuildContext): PortfolioFigures {
  const flows = parts.flatMap((p) => p.figures.flows);
  const dates = [...new Set(parts.flatMap((p) => p.recorded.map((r) => r.asOf)))].filter((d) => d < ctx.asOf).sort();
  const recorded = dates.flatMap((asOf) => {
    let value = 0;
    for (const p of parts) {
      const at = p.recorded.find((r) => r.asOf === asOf);
      if (at) value += at.value;
      else if (p.figures.flows.some((f) => f.date <= asOf)) return [];
    }
    return [{ asOf, value }];
  });
  const value = parts.reduce((s, p) => s + p.rows.reduce((t, h) => t + h.current_value, 0), 0);
  const perf = portfolioPerformance({
    asOf: ctx.asOf,
    value: parts.every((p) => p.complete) ? value : { unknown: notEveryHoldingValued(ctx.asOf) },
    recorded,
    flows,
    holdings: parts.flatMap((p) => p.rows.map((h) => ({ key: `${h.portfolio}\u0000${h.asset_id}`, value: h.current_value }))),
  });
  const sources = [...new Set(parts.map((p) => p.figures.source))];
  return { perf, flows, problems: parts.flatMap((p) => p.figures.problems), source: sources.join('; ') };
}
