import { brandIn } from '../../src/brand';
import type { PortfolioInput } from '../../src/holdings/types';
import { composeDisclaimer, type ExitRow, type Holding, type ProjectionRow, type ReportData, type ReportError, type Section } from '../report-data';
import type { PortfolioResults } from '../run/results';
import type { Performance } from '../../src/wire';
import { forClient } from './client-notes';
import { buildTranslator } from './client-language';
import { inputError } from './errors';
import { largestFirst } from './figures';
import { methodNotes } from './method-notes';
import type { BuildContext } from './context';
import { byRow, exitRows, holdingRows, limitsNote, projectionRows } from './portfolio-report';
import { headline, holdingsKey } from './headline';
import { TOP_HOLDINGS } from '../run/enrich';
import { mapSection, performanceComparison } from './sections';
import { EXIT_MONEY, EXIT_PERCENTS, groupByAsset, PROJECTION_MONEY, PROJECTION_PERCENTS } from './group-by-asset';
import type { UnvaluedHolding } from './returns';
import type { HistoryInput } from './history';
import { applyHoldingChanges, combinedPerformance, heldAlone, performanceOf, type PortfolioFigures } from './performance';

export const CONSOLIDATED_NAME = 'Consolidated';

/** The firm's name for the consolidated report's client line: it is addressed to the firm, not to any client. */
export const CONSOLIDATED_AUDIENCE = 'Internal — all portfolios';

/**
 * The firm's internal report over several portfolios: every holding and error with its
 * portfolio, and projections and exit rows for the largest holdings overall (one row per asset).
 * Each holding's month column is its own portfolio's (the same computation as that portfolio's
 * report, from its `past`); the summary's returns and month-on-month are the engine's over the
 * portfolios together, so its money figures are their sums. The firm's words are in the run's
 * language; a fallback to the firm's language is an analyst note and is said with `say` (the run's
 * log: the portfolios' notes are said as their reports are built, this report's are not said again).
 */
export function buildConsolidatedReport(
  parts: readonly { input: PortfolioInput; results: PortfolioResults; past?: HistoryInput }[],
  performance: Section<Performance>,
  ctx: BuildContext,
  say: (line: string) => void = () => {},
): ReportData {
  const tr = buildTranslator(ctx);
  const rows: Holding[] = [];
  const errors: ReportError[] = [];
  const analyst: string[] = [];
  const unvalued: UnvaluedHolding[] = [];
  const projections: ProjectionRow[] = [];
  const exits: ExitRow[] = [];
  let projectionNote: string | undefined;
  let exitNote: string | undefined;
  const measured: { figures: PortfolioFigures; recorded: HistoryInput['recorded']; rows: Holding[]; complete: boolean }[] = [];
  const previousHoldings: { asset_id: string; current_value: number }[] = [];
  for (const { input, results, past } of parts) {
    const built = holdingRows(input, results, ctx);
    const known = past ?? heldAlone(input, ctx.currency);
    const figures = performanceOf(built.rows, built.unvalued.length === 0, known, ctx);
    applyHoldingChanges(built.rows, figures.perf);
    measured.push({ figures, recorded: known.recorded, rows: built.rows, complete: built.unvalued.length === 0 });
    previousHoldings.push(...(known.previousHoldings?.holdings ?? []));
    rows.push(...built.rows);
    unvalued.push(...built.unvalued);
    errors.push(...input.problems.map((p) => inputError(p, false, tr)), ...built.errors);
    analyst.push(...built.analystNotes.map((n) => `${input.name}: ${n}`), ...results.problems.map((m) => `${input.name}: ${m}`));
    if (results.projections.included) projections.push(...projectionRows(built, results.projections.data));
    else projectionNote = results.projections.note;
    if (results.exits.included) exits.push(...exitRows(built, results.exits.data));
    else exitNote = results.exits.note;
  }
  // Portfolios split from one file share its notes on columns left out: each said once (they name the file).
  analyst.unshift(...new Set(parts.flatMap((p) => p.input.readNotes ?? [])));
  analyst.push(...limitsNote(ctx));
  const top = <T extends { current_value: number; row: number }>(xs: T[]) => largestFirst(xs).slice(0, TOP_HOLDINGS);
  const names = parts.map((p) => p.input.name);
  const together = combinedPerformance(measured, ctx);
  const head = headline({ client: CONSOLIDATED_AUDIENCE, portfolio: CONSOLIDATED_NAME, portfolios: names }, parts.map((p) => [p.input.name, holdingsKey(p.input)]), rows, unvalued, ctx, together, previousHoldings, true);
  const projectionSection: Section<ProjectionRow[]> =
    projectionNote !== undefined && projections.length === 0 ? { included: false, note: projectionNote } : { included: true, data: top(groupByAsset(projections, PROJECTION_MONEY, PROJECTION_PERCENTS)) };
  // The firm's words in the run's language, as a client report takes them in its client's: a fallback to the firm's language is an analyst note.
  // The report is addressed to no client, so no manager is kept (brandIn keeps the portfolio's alone, and "Consolidated" has none).
  const brand = ctx.brand && brandIn(ctx.brand, tr.lang, { name: CONSOLIDATED_NAME }, {
    portfolio: CONSOLIDATED_NAME,
    warn: (line) => {
      analyst.push(line);
      say(line);
    },
  });
  const exitSection: Section<ExitRow[]> =
    exitNote !== undefined && exits.length === 0 ? { included: false, note: exitNote } : { included: true, data: top(groupByAsset(exits, EXIT_MONEY, EXIT_PERCENTS)) };
  return {
    ...head,
    holdings: rows,
    benchmarks: forClient(mapSection(performance, (p) => performanceComparison(p, tr)), 'notes.section_benchmarks', analyst, tr),
    projections: forClient(projectionSection, 'notes.section_projections', analyst, tr),
    exit_analysis: forClient(exitSection, 'notes.section_exit_analysis', analyst, tr),
    errors: errors.sort(byRow),
    analyst_notes: analyst,
    method_notes: methodNotes(ctx, { summary: head.summary, consolidated: parts.length, currencies: new Set(rows.map((r) => r.purchase_currency)) }),
    disclaimer: composeDisclaimer(head.summary, ctx.sandbox, tr.lang),
    ...(brand ? { brand } : {}),
    // The firm's own report: the run's language, whatever its clients'.
    language: tr.lang,
    ...(ctx.csvHeaders ? { csv_headers: ctx.csvHeaders } : {}),
  };
}
