import { PERIOD_KEYS, REPORT_SCHEMA_VERSION, type Holding, type PeriodFigures, type ReportData, type ReportHistory } from '../report-data';
import type { HoldingDocument, PortfolioReportDocument } from '../schema/portfolio-report';
import { HOLDING_COLUMNS, roundMoney } from './holding-columns';
import { DEFAULT_LANGUAGE } from '../../src/i18n/languages';
import type { InsuranceItem, InsuranceReview, StatusTotal } from '../../src/insurance/types';

/**
 * The JSON report document: ReportData with the cover lifted to the top level, money to the
 * cent, and `schema_version` (reports/schema/portfolio-report.schema.json). Holdings and errors
 * are left out here and streamed by the writer, so a large portfolio (or 100,000 bad rows) is
 * never held as one string.
 * Typed by the zod model the schema is generated from (reports/schema/portfolio-report.ts),
 * so a field the writer adds, drops or retypes fails the type check until the model follows.
 */
export function reportDocumentHead(data: ReportData): PortfolioReportDocument {
  const c = data.cover;
  const s = data.summary;
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    report_id: c.report_id,
    portfolio: { name: c.portfolio_name, id: c.portfolio_id, client_name: c.client_name, prepared_by: c.prepared_by ?? null },
    as_of: c.as_of,
    generated_at: c.generated_at,
    currency: c.currency,
    sandbox: c.sandbox,
    illustrative_rates: c.illustrative_rates,
    audience: c.audience,
    portfolios: c.portfolios,
    language: data.language ?? DEFAULT_LANGUAGE,
    summary: {
      ...s,
      fx_effect: roundMoney(s.fx_effect),
      asset_effect: roundMoney(s.asset_effect),
      total_invested: roundMoney(s.total_invested),
      current_value: roundMoney(s.current_value),
      current_value_low: roundMoney(s.current_value_low),
      current_value_high: roundMoney(s.current_value_high),
      gain: roundMoney(s.gain),
    },
    allocation: data.allocation.map((a) => ({ ...a, value: roundMoney(a.value) })),
    concentration: data.concentration,
    holdings: [],
    benchmarks: data.benchmarks,
    projections: data.projections,
    exit_analysis: data.exit_analysis,
    ...(data.history ? historyDocument(data.history) : {}),
    ...(data.insurance ? { insurance: insuranceDocument(data.insurance) } : {}),
    errors: [],
    analyst_notes: data.analyst_notes,
    method_notes: data.method_notes,
    disclaimer: data.disclaimer,
  };
}

/**
 * One holding as it appears in the JSON: exactly the documented fields, in table order, money
 * to the cent. Built from the column list rather than spread, so an extra property a caller
 * carries on its rows can never make the document fail its schema.
 */
export function holdingDocument(h: Holding): HoldingDocument {
  const doc: Record<string, unknown> = {};
  for (const c of HOLDING_COLUMNS) {
    const v = h[c.key];
    // The original purchase price keeps its own currency's precision (a JPY price has no cents to lose anyway).
    doc[c.key] = c.kind === 'money' && !c.purchaseCurrency && typeof v === 'number' ? roundMoney(v) : v;
  }
  // Built key by key, so the compiler cannot see the shape; HOLDING_COLUMNS is checked against
  // the model's fields in test/report-writers/report-schema.test.ts.
  return doc as HoldingDocument;
}

/** One review line: money to the cent, built field by field (nothing else a build carries reaches the document). */
const insuranceItemDocument = (i: InsuranceItem) => ({
  ...(i.row !== undefined ? { row: i.row } : {}),
  asset_id: i.asset_id,
  description: i.description,
  insured_value: i.insured_value === null ? null : roundMoney(i.insured_value),
  ...(i.insured_value_original ? { insured_value_original: { amount: i.insured_value_original.amount, currency: i.insured_value_original.currency } } : {}),
  mid: roundMoney(i.mid),
  high: roundMoney(i.high),
  replacement_value: roundMoney(i.replacement_value),
  gap: i.gap === null ? null : roundMoney(i.gap),
  status: i.status,
  insurer: i.insurer,
  policy: i.policy,
  renewal_date: i.renewal_date,
  renews_in_days: i.renews_in_days,
  serial: i.serial,
  ...(i.under_insured_since !== undefined ? { under_insured_since: i.under_insured_since } : {}),
});

const statusTotalDocument = (t: StatusTotal): StatusTotal => ({ count: t.count, insured_value: roundMoney(t.insured_value), replacement_value: roundMoney(t.replacement_value) });

function insuranceDocument(r: InsuranceReview): NonNullable<PortfolioReportDocument['insurance']> {
  const t = r.totals;
  return {
    basis: r.basis,
    tolerance: r.tolerance,
    over_insured_factor: r.over_insured_factor,
    renewal_window_days: r.renewal_window_days,
    items: r.items.map(insuranceItemDocument),
    totals: {
      by_status: {
        'under-insured': statusTotalDocument(t.by_status['under-insured']),
        'over-insured': statusTotalDocument(t.by_status['over-insured']),
        covered: statusTotalDocument(t.by_status.covered),
        'not-insured': statusTotalDocument(t.by_status['not-insured']),
      },
      total_shortfall: roundMoney(t.total_shortfall),
      insured_value: roundMoney(t.insured_value),
      replacement_value: roundMoney(t.replacement_value),
    },
    renewals: r.renewals.map(insuranceItemDocument),
  };
}

// Each object is built field by field, as holdings are: whatever else the build's rows carry can never reach the document.
const periodDocument = (p: PeriodFigures): PeriodFigures => ({
  from: p.from,
  to: p.to,
  annualised: p.annualised,
  twr_percent: p.twr_percent,
  mwr_percent: p.mwr_percent,
  start_value: roundMoney(p.start_value),
  end_value: roundMoney(p.end_value),
  net_flows: roundMoney(p.net_flows),
  ...(p.note === undefined ? {} : { note: p.note }),
});

/**
 * The portfolio's own history as the JSON's top-level keys (schema 1.3): money to the cent,
 * percentages as numbers, codes as codes. Only called when the report has a history, so a report
 * without one writes none of these keys.
 */
export function historyDocument(h: ReportHistory): Required<Pick<PortfolioReportDocument, 'performance' | 'realised_gain' | 'unrealised_gain' | 'value_history' | 'transactions' | 'history_source'>> {
  const perf = h.performance;
  return {
    performance: {
      periods: Object.fromEntries(PERIOD_KEYS.map((k) => [k, perf.periods[k] === null ? null : periodDocument(perf.periods[k])])) as Record<(typeof PERIOD_KEYS)[number], PeriodFigures | null>,
      unavailable: Object.fromEntries(PERIOD_KEYS.flatMap((k) => (perf.unavailable[k] === undefined ? [] : [[k, perf.unavailable[k]]]))),
      month_ends: perf.month_ends,
    },
    realised_gain: {
      lines: h.realised_gain.lines.map((l) => ({
        asset_id: l.asset_id, description: l.description, sold: l.sold, opened: l.opened, quantity: l.quantity,
        cost: roundMoney(l.cost), proceeds: roundMoney(l.proceeds), gain: roundMoney(l.gain), source: l.source, lot: l.lot ?? null, unit: l.unit ?? null,
      })),
      total: roundMoney(h.realised_gain.total),
    },
    unrealised_gain: roundMoney(h.unrealised_gain),
    value_history: h.value_history.map((p) => ({ as_of: p.as_of, value: roundMoney(p.value), net_flows: roundMoney(p.net_flows) })),
    transactions: h.transactions.map((t) => ({
      date: t.date, type: t.type, asset_id: t.asset_id, description: t.description, quantity: t.quantity,
      amount_original: t.amount_original, currency: t.currency, amount: roundMoney(t.amount), notes: t.notes, source: t.source, lot: t.lot ?? null, unit: t.unit ?? null,
    })),
    history_source: h.source,
  };
}
