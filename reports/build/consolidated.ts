import type { PortfolioInput } from '../../src/holdings/types';
import { composeDisclaimer, type ExitRow, type ProjectionRow, type ReportData, type ReportError, type Section } from '../report-data';
import type { PortfolioResults } from '../run/results';
import type { Performance } from '../../src/wire';
import { inputError } from './errors';
import { largestFirst } from './figures';
import { methodNotes } from './method-notes';
import type { BuildContext } from './context';
import { byRow, holdingRows } from './portfolio-report';
import { headline, holdingsKey } from './headline';
import { TOP_HOLDINGS } from '../run/enrich';
import { exitRow, mapSection, performanceComparison, projectionRow } from './sections';

export const CONSOLIDATED_NAME = 'Consolidated';

/**
 * One report over several portfolios: every holding (its description prefixed with its
 * portfolio), every error, and projections and exit rows for the largest holdings overall.
 */
export function buildConsolidatedReport(
  parts: readonly { input: PortfolioInput; results: PortfolioResults }[],
  performance: Section<Performance>,
  ctx: BuildContext,
): ReportData {
  const rows = [];
  const errors: ReportError[] = [];
  const projections: ProjectionRow[] = [];
  const exits: ExitRow[] = [];
  let projectionNote: string | undefined;
  let exitNote: string | undefined;
  for (const { input, results } of parts) {
    const built = holdingRows(input, results, true);
    for (const r of built.rows) r.description = `${input.name} · ${r.description}`;
    rows.push(...built.rows);
    errors.push(...input.problems.map((p) => inputError(p, true)), ...built.errors, ...results.problems.map((m) => ({ row: null, field: '', message: `${input.name}: ${m}` })));
    const ref = (i: number) => ({ ...built.refs.get(i)!, description: `${input.name} · ${built.refs.get(i)!.description}` });
    if (results.projections.included) projections.push(...results.projections.data.filter((x) => built.refs.has(x.index)).map((x) => projectionRow(ref(x.index), x.projection)));
    else projectionNote = results.projections.note;
    if (results.exits.included) exits.push(...results.exits.data.filter((x) => built.refs.has(x.index)).map((x) => exitRow(ref(x.index), x.exit)));
    else exitNote = results.exits.note;
  }
  const top = <T extends { current_value: number; row: number }>(xs: T[]) => largestFirst(xs).slice(0, TOP_HOLDINGS);
  const names = { client: parts.map((p) => p.input.name).join(', '), portfolio: CONSOLIDATED_NAME };
  const head = headline(names, parts.map((p) => [p.input.name, holdingsKey(p.input)]), rows, ctx);
  return {
    ...head,
    holdings: rows,
    benchmarks: mapSection(performance, performanceComparison),
    projections: projectionNote !== undefined && projections.length === 0 ? { included: false, note: projectionNote } : { included: true, data: top(projections) },
    exit_analysis: exitNote !== undefined && exits.length === 0 ? { included: false, note: exitNote } : { included: true, data: top(exits) },
    errors: errors.sort(byRow),
    method_notes: methodNotes(ctx, { previousFound: head.summary.month_on_month !== null, consolidated: parts.length }),
    disclaimer: composeDisclaimer(head.summary, ctx.sandbox),
  };
}
