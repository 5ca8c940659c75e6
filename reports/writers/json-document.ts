import { REPORT_SCHEMA_VERSION, type Holding, type ReportData } from '../report-data';
import type { HoldingDocument, PortfolioReportDocument } from '../schema/portfolio-report';
import { HOLDING_COLUMNS, roundMoney } from './holding-columns';

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
