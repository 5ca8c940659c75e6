/**
 * `svc-report review DIR`: what a reviewer checks first in each report of a run, as text: the
 * total and its change on the month, holdings not valued or not market validated, holdings that
 * moved more than --flag-move percent since last month, and the analyst notes; and where the
 * report stands (draft, approved, rejected, changed since approval).
 */
import { NO_EARLIER_MONTH_END } from '../../src/performance';
import { describeState, reportState } from './approval-state';
import type { FolderReport, RunFolder } from './folder-reports';

/** --flag-move's default, in percent. */
export const DEFAULT_FLAG_MOVE = 25;

const money = (n: number, currency: string) => `${currency} ${n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const pct = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} %`;

export interface ReviewFigures {
  value: number;
  change: { amount: number; percent: number | null; since: string } | null;
  notValued: { row: number | null; message: string }[];
  notValidated: string[];
  /** Holdings that moved more than the threshold since the previous month-end; null when there is none to compare with (not checked). */
  moves: { holding: string; percent: number }[] | null;
  notes: string[];
}

/**
 * The figures review shows for one report; moves are those above flagMove percent either way,
 * from each holding's month column: the report's engine matched it against the month-end
 * recorded before (the history database, else --previous). Without one, moves are not checked.
 */
export function reviewFigures(r: FolderReport, flagMove: number): ReviewFigures {
  const { report } = r;
  const mom = report.summary.month_on_month;
  const label = (h: FolderReport['report']['holdings'][number]) => `${h.description ?? 'holding'}${h.row != null ? ` (row ${h.row})` : ''}`;
  return {
    value: report.summary.current_value,
    change: mom ? { amount: mom.change, percent: mom.change_percent, since: mom.previous_as_of } : null,
    notValued: report.errors.map((e) => ({ row: e.row, message: e.message })),
    notValidated: report.holdings.filter((h) => h.market_validated === false).map(label),
    moves: !mom
      ? null
      : report.holdings
      .filter((h) => h.month_on_month_percent != null && Math.abs(h.month_on_month_percent) > flagMove)
      .map((h) => ({ holding: label(h), percent: h.month_on_month_percent! })),
    notes: report.analyst_notes,
  };
}

/** The review's lines for the whole folder. */
export async function reviewLines(folder: RunFolder, flagMove: number): Promise<string[]> {
  const lines: string[] = [];
  for (const r of folder.reports) {
    const f = reviewFigures(r, flagMove);
    const c = r.report.currency;
    lines.push(`${r.portfolio} (${r.audience === 'client' ? 'client report' : 'internal'}; ${r.stem}): ${describeState(await reportState(folder, r))}`);
    lines.push(`  Total value ${money(f.value, c)}${f.change ? `; change on the month ${money(f.change.amount, c)}${f.change.percent === null ? '' : ` (${pct(f.change.percent)})`} since ${f.change.since}` : `; no change on the month: ${NO_EARLIER_MONTH_END}`}`);
    lines.push(`  Not valued: ${f.notValued.length === 0 ? 'none' : f.notValued.length}`);
    for (const e of f.notValued) lines.push(`    ${e.row === null ? '' : `row ${e.row}: `}${e.message}`);
    lines.push(`  Not market validated: ${f.notValidated.length === 0 ? 'none' : f.notValidated.length}`);
    for (const h of f.notValidated) lines.push(`    ${h}`);
    lines.push(`  Moved more than ${flagMove} % since last month: ${f.moves === null ? `not checked: ${NO_EARLIER_MONTH_END}` : f.moves.length === 0 ? 'none' : f.moves.length}`);
    for (const m of f.moves ?? []) lines.push(`    ${m.holding}: ${pct(m.percent)}`);
    lines.push(`  Analyst notes: ${f.notes.length === 0 ? 'none' : f.notes.length}`);
    for (const n of f.notes) lines.push(`    ${n}`);
  }
  return lines;
}
