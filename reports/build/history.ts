import type { LedgerEntry, LedgerSource } from '../../src/ledger';
import { monthEndBefore, realisedGains, PERIOD_KEYS, type PeriodKey, type PeriodPerformance, type RateFunction } from '../../src/performance';
import type { PortfolioInput } from '../../src/holdings/types';
import type { Holding, PeriodFigures, ReportError, ReportHistory, TransactionLine } from '../report-data';
import type { BuildContext } from './context';
import { fxRate } from './fx';
import { buildTranslator } from './client-language';
import type { Translator } from '../../src/i18n';
import type { HistoryInput, PortfolioFigures } from './performance';

export type { HistoryInput } from './performance';

/**
 * The portfolio's history section: its own performance over the standard periods (the engine's,
 * `figures`, the same computation the summary reads), realised gains (every sale, first in,
 * first out), the unrealised gain of what is held, its value over time and this period's
 * transactions. Money in the reporting currency at each date's rate; a row whose rate is missing
 * is an error of the report and is left out of the figures.
 */
export function buildHistory(input: PortfolioInput, rows: readonly Holding[], history: HistoryInput, measured: PortfolioFigures, ctx: BuildContext): { history: ReportHistory; errors: ReportError[] } {
  const rate: RateFunction = (currency, date) => fxRate(ctx, currency, ctx.currency, date);
  const tr = buildTranslator(ctx);
  const { periods, values } = measured.perf;
  const realised = realisedGains(history.ledger.realisations, rate);
  const names = assetNames(input, history.ledger.entries);
  const name = (id: string) => names.get(id) ?? id;

  const figures = {} as Record<PeriodKey, PeriodFigures | null>;
  for (const key of PERIOD_KEYS) {
    const p = periods.periods[key];
    figures[key] = p && withoutDays(p);
  }
  const periodStart = monthEndBefore(ctx.asOf, 1);
  const transactions: TransactionLine[] = [];
  for (const e of history.ledger.entries) {
    if (e.date <= periodStart) continue;
    let amount: number | null = null;
    try {
      amount = e.amount * rate(e.currency, e.date);
    } catch {
      continue; // said once, as the flow's error below
    }
    transactions.push({
      date: e.date,
      type: e.type,
      asset_id: e.assetId ?? null,
      description: e.assetId ? name(e.assetId) : null,
      quantity: e.quantity ?? null,
      amount_original: e.amount,
      currency: e.currency,
      amount,
      notes: e.notes ?? null,
      source: describeSource(tr, e.source),
      lot: e.lot ?? null,
      unit: e.unit ?? null,
    });
  }
  const errors: ReportError[] = [...measured.problems, ...realised.problems].map((p) => ({ portfolio: p.portfolio, row: p.source.row, field: p.field, message: `${describeSource(tr, p.source)}: ${p.reason}` }));
  return {
    history: {
      performance: { periods: figures, unavailable: periods.unavailable, month_ends: values.length },
      realised_gain: {
        lines: realised.lines.map((l) => ({ asset_id: l.assetId, description: name(l.assetId), sold: l.sold, opened: l.opened, quantity: l.quantity, cost: l.costReporting, proceeds: l.proceedsReporting, gain: l.gain, source: describeSource(tr, l.source), lot: l.lot ?? null, unit: l.unit ?? null })),
        total: realised.total,
      },
      unrealised_gain: rows.reduce((s, h) => s + (h.current_value - h.purchase_price), 0),
      value_history: measured.perf.valueHistory.map((p) => ({ as_of: p.as_of, value: p.value, net_flows: p.net_flows })),
      transactions,
      source: measured.source,
    },
    errors,
  };
}

const withoutDays = ({ days: _days, ...figures }: PeriodPerformance): PeriodFigures => figures;

/** "ledger.csv row 14" or "holdings.xlsx (sheet Smith) row 3", in the report's language. */
function describeSource(tr: Translator, s: LedgerSource): string {
  const file = s.file.split(/[\\/]/).pop() ?? s.file;
  // The row as written, not grouped as a number ("row 1234").
  const row = String(s.row);
  return s.sheet ? tr.t('notes.ledger_sheet_row', { file, sheet: s.sheet, row }) : tr.t('notes.ledger_row', { file, row });
}

/** Each asset's name as the client knows it: from the holdings held, else from the transactions rows that named it. */
function assetNames(input: PortfolioInput, entries: readonly LedgerEntry[]): Map<string, string> {
  const names = new Map<string, string>();
  const say = (id: string, brand: string, model: string, reference?: string, year?: number) => {
    if (names.has(id)) return;
    const ref = reference && !model.includes(reference) ? ` ${reference}` : '';
    names.set(id, `${brand} ${model}${ref}${year !== undefined ? ` (${year})` : ''}`);
  };
  for (const h of input.holdings) say(h.assetId, h.brand, h.model, h.reference, h.year);
  for (const e of entries) if (e.assetId && e.asset) say(e.assetId, e.asset.brand, e.asset.model, e.asset.reference, e.asset.year);
  return names;
}
