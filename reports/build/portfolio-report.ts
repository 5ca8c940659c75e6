import { MissingRateError } from '../../src/fx';
import { InputError, type PortfolioInput } from '../../src/holdings/types';
import { composeDisclaimer, type ExitRow, type Holding as ReportHolding, type ProjectionRow, type ReportData, type ReportError } from '../report-data';
import type { PortfolioResults } from '../run/results';
import { forClient } from './client-notes';
import { buildTranslator } from './client-language';
import type { BuildContext } from './context';
import { describeHolding, quantityUnit } from './describe';
import { inputError, valuationError } from './errors';
import { fxRate } from './fx';
import { headline, holdingsKey } from './headline';
import { methodNotes } from './method-notes';
import { holdingMoneyWeighted, type UnvaluedHolding } from './returns';
import { DEFAULT_LANGUAGE } from '../../src/i18n/languages';
import { exitRow, mapSection, performanceComparison, projectionRow, type RowRef } from './sections';
import { groupPositions, type Position } from '../run/positions';
import { buildHistory, type HistoryInput } from './history';
import { heldAlone, performanceOf } from './performance';
import { buildInsurance } from './insurance';

/** A return above this on one holding is worth a second look by the analyst (a mistyped price, a wrong match). */
export const IMPLAUSIBLE_RETURN_PERCENT = 1000;

export interface HoldingRows {
  rows: ReportHolding[];
  errors: ReportError[];
  /** Valued holdings by their index in the input. */
  refs: Map<number, RowRef>;
  /** The report row of each valued holding, by input index (projections and exits fill net_realisable_value). */
  byIndex: Map<number, ReportHolding>;
  /** Valued holdings grouped by asset id: the positions projections and exits are about (enrich.ts asks per position). */
  positions: Map<string, Position>;
  unvalued: UnvaluedHolding[];
  analystNotes: string[];
}

/**
 * The valued holdings as report rows (input order), in the reporting currency: the purchase at
 * the purchase date's rate, the value at the as-of date's. Holdings not valued, or without a
 * usable exchange rate, become errors that say why.
 */
export function holdingRows(input: PortfolioInput, results: PortfolioResults, ctx: BuildContext, withPortfolio = false): HoldingRows {
  const out: HoldingRows = { rows: [], errors: [], refs: new Map(), byIndex: new Map(), positions: new Map(), unvalued: [], analystNotes: [] };
  const R = ctx.currency;
  const tr = buildTranslator(ctx);
  input.holdings.forEach((h, i) => {
    const v = results.valuations[i];
    const purchaseCurrency = h.currency ?? R;
    const costIn = () => {
      try {
        return h.purchasePrice * fxRate(ctx, purchaseCurrency, R, h.purchaseDate);
      } catch {
        return null;
      }
    };
    const notValued = (field: string, message: string) => {
      out.errors.push(valuationError(h, field, message, withPortfolio, tr));
      out.unvalued.push({ asset_id: h.assetId, cost: costIn() });
    };
    if (!v) return notValued('', 'the run did not reach this holding');
    if (!v.ok) return notValued(v.field, v.message);
    let rates: { purchase: number; asOf: number; value: number };
    try {
      rates = {
        purchase: fxRate(ctx, purchaseCurrency, R, h.purchaseDate),
        asOf: fxRate(ctx, purchaseCurrency, R, ctx.asOf),
        value: fxRate(ctx, v.currency, R, ctx.asOf),
      };
    } catch (e) {
      if (!(e instanceof MissingRateError)) throw e;
      return notValued('currency', e.message);
    }
    const score = results.scores[i] ?? undefined;
    const value = v.mid * rates.value;
    const cost = h.purchasePrice * rates.purchase;
    const description = describeHolding(h, tr);
    const row: ReportHolding = {
      row: h.source.row,
      // The id the service valued, not one spelt from the descriptors (answered.ts).
      asset_id: v.asset_id ?? h.assetId,
      description,
      segment: h.segment,
      quantity: h.quantity,
      quantity_unit: quantityUnit(h, tr),
      portfolio: input.name,
      purchase_currency: purchaseCurrency,
      purchase_price_original: h.purchasePrice,
      fx_rate_purchase: rates.purchase,
      fx_rate_as_of: rates.asOf,
      purchase_price: cost,
      purchase_date: h.purchaseDate,
      value_low: (v.low ?? v.mid) * rates.value,
      current_value: value,
      value_high: (v.high ?? v.mid) * rates.value,
      confidence: v.confidence,
      service_score: score?.service_score ?? v.service_score,
      momentum: v.momentum ?? score?.momentum ?? '',
      return_percent: cost === 0 ? null : ((value - cost) / cost) * 100,
      money_weighted_return_percent: null,
      net_realisable_value: null,
      weight_percent: 0,
      month_on_month_change: null,
      month_on_month_percent: null,
      market_validated: score?.market_validated ?? v.market_validated,
    };
    row.money_weighted_return_percent = holdingMoneyWeighted(row, ctx.asOf);
    if (row.return_percent !== null && row.return_percent > IMPLAUSIBLE_RETURN_PERCENT) {
      out.analystNotes.push(
        `${withPortfolio ? `${input.name}, ` : ''}row ${row.row} (${description}): a return of ${Math.round(row.return_percent).toLocaleString('en-US')} % since purchase is above ${IMPLAUSIBLE_RETURN_PERCENT.toLocaleString('en-US')} %; check the purchase price and that the valuation is for this asset before sending the report.`,
      );
    }
    if (v.from_descriptors) {
      out.analystNotes.push(
        `${withPortfolio ? `${input.name}, ` : ''}row ${row.row} (${description}): the asset id ${h.assetId} is not one the service issued; it was valued from the details the row gives (--allow-unknown-ids), so check that the valuation is for this asset before sending the report.`,
      );
    }
    out.rows.push(row);
    out.byIndex.set(i, row);
    out.refs.set(i, {
      row: row.row,
      asset_id: row.asset_id,
      description,
      portfolio: input.name,
      holding_count: 1,
      current_value: value,
      confidence: row.confidence,
      market_validated: row.market_validated,
      rate: (serviceCurrency) => fxRate(ctx, serviceCurrency, R, ctx.asOf),
    });
  });
  const byIndex = out.byIndex;
  for (const p of groupPositions(byIndex.keys(), (i) => byIndex.get(i)!.asset_id, (i) => byIndex.get(i)!.current_value)) out.positions.set(p.asset_id, p);
  return out;
}

/**
 * The position a projection or exit answer is about (it names the position's first line): every
 * line of the asset together, so the row shows their count and total value.
 */
export function positionRef(built: HoldingRows, index: number): RowRef {
  const first = built.refs.get(index)!;
  const p = built.positions.get(first.asset_id);
  if (!p || p.lines.length === 1) return first;
  const refs = p.lines.map((i) => built.refs.get(i)!);
  return {
    ...first,
    holding_count: p.lines.length,
    current_value: p.value,
    confidence: Math.min(...refs.map((r) => r.confidence)),
    market_validated: refs.every((r) => r.market_validated),
  };
}

/** Projection rows of the positions analysed, largest first as enrich() took them. */
export function projectionRows(built: HoldingRows, items: readonly { index: number; projection: Parameters<typeof projectionRow>[1] }[]): ProjectionRow[] {
  return items.filter((x) => built.refs.has(x.index)).map((x) => projectionRow(positionRef(built, x.index), x.projection));
}

/**
 * Exit rows of the positions analysed; every line of a position gets its net realisable value
 * (its value after the primary channel's commission), not only the line that names the position.
 */
export function exitRows(built: HoldingRows, items: readonly { index: number; exit: Parameters<typeof exitRow>[1] }[]): ExitRow[] {
  return items
    .filter((x) => built.refs.has(x.index))
    .map((x) => {
      const row = exitRow(positionRef(built, x.index), x.exit);
      const lines = built.positions.get(row.asset_id)?.lines ?? [x.index];
      for (const i of lines) {
        const holding = built.byIndex.get(i)!;
        holding.net_realisable_value = holding.current_value * (1 - row.primary_commission_percent / 100);
      }
      return row;
    });
}

/**
 * One portfolio's report. `past` is what the run knows of its history (its ledger and recorded
 * month-ends): the report then has a history section. Without it (the add-in's export) the
 * returns rest on the holdings alone, as purchases on their dates.
 */
export function buildPortfolioReport(input: PortfolioInput, results: PortfolioResults, ctx: BuildContext, past?: HistoryInput): ReportData {
  if (input.holdings.length === 0) {
    throw new InputError(`portfolio "${input.name}" has no readable holding (every row was refused): no report is written for it; the row errors say what to correct`);
  }
  // Every sentence of a client's report in the client's language: the portfolio's own, else the run's.
  ctx = { ...ctx, language: input.language ?? ctx.language ?? DEFAULT_LANGUAGE };
  const tr = buildTranslator(ctx);
  const built = holdingRows(input, results, ctx);
  const { rows, errors } = built;
  const analyst = [...(input.readNotes ?? []), ...built.analystNotes, ...results.problems, ...limitsNote(ctx)];
  const known = past ?? heldAlone(input, ctx.currency);
  // The one computation every return figure of this report is read from.
  const figures = performanceOf(rows, built.unvalued.length === 0, known, ctx);
  const head = headline({ client: input.name, portfolio: input.name, portfolios: [] }, holdingsKey(input), rows, built.unvalued, ctx, figures, known.previousHoldings?.holdings);
  const benchmarks = forClient(mapSection(results.performance, (p) => performanceComparison(p, tr)), 'notes.section_benchmarks', analyst, tr);
  // One asset held several times in the portfolio is one position: one row of the largest-holdings tables.
  const projections = forClient(mapSection(results.projections, (items) => projectionRows(built, items)), 'notes.section_projections', analyst, tr);
  const exits = forClient(mapSection(results.exits, (items) => exitRows(built, items)), 'notes.section_exit_analysis', analyst, tr);
  const history = past ? buildHistory(input, rows, past, figures, ctx) : undefined;
  const insurance = buildInsurance(input, built.byIndex, ctx, tr, past?.underInsuredSince);
  return {
    ...head,
    holdings: rows,
    benchmarks,
    projections,
    exit_analysis: exits,
    ...(history ? { history: history.history } : {}),
    ...(insurance.review ? { insurance: insurance.review } : {}),
    errors: withHistoryErrors([...input.problems.map((p) => inputError(p, false, tr)), ...errors, ...insurance.errors], history?.errors ?? []).sort(byRow),
    analyst_notes: analyst,
    method_notes: methodNotes(ctx, { summary: head.summary, currencies: new Set(rows.map((r) => r.purchase_currency)) }),
    disclaimer: composeDisclaimer(head.summary, ctx.sandbox, tr.lang),
    ...(ctx.brand ? { brand: ctx.brand } : {}),
    language: tr.lang,
  };
}

/** Which limits paced the run (the service's stated ones, the tier's figure, or a ceiling): the analyst can tell a slow month-end's cause. */
export function limitsNote(ctx: BuildContext): string[] {
  return ctx.limitsInForce ? [`Service limits in force for this run: ${ctx.limitsInForce}.`] : [];
}

/** The history's errors (a flow's missing rate) not already said of the same row and field (a holding's missing rate). */
function withHistoryErrors(errors: ReportError[], fromHistory: readonly ReportError[]): ReportError[] {
  const said = new Set(errors.map((e) => `${e.row}\u0000${e.field}`));
  return [...errors, ...fromHistory.filter((e) => !said.has(`${e.row}\u0000${e.field}`))];
}

/** Row-tied errors in row order, then the portfolio-level ones. */
export function byRow(a: ReportError, b: ReportError): number {
  return (a.row ?? Number.MAX_SAFE_INTEGER) - (b.row ?? Number.MAX_SAFE_INTEGER);
}
