/**
 * The portfolio history's words, shared by the PDF and the xlsx (issue 23): the standard periods
 * and the ledger's types as a client reads them. The JSON and CSV keep the codes.
 */
import type { PeriodFigures, PeriodKey, TransactionLine, ValueHistoryPoint } from '../report-data';

export const PERIOD_LABELS: Record<PeriodKey, string> = {
  mtd: 'Month to date',
  qtd: 'Quarter to date',
  ytd: 'Year to date',
  '1y': '1 year',
  '3y': '3 years',
  since_inception: 'Since inception',
};

export const TRANSACTION_TYPE_LABELS: Record<TransactionLine['type'], string> = {
  buy: 'Purchase',
  sell: 'Sale',
  fee: 'Fee',
  income: 'Income',
  transfer_in: 'Transfer in',
  transfer_out: 'Transfer out',
};

/** How a period's returns are stated: a yearly rate for a period longer than a year, else the period's own return. */
export const returnBasis = (p: PeriodFigures): string => (p.annualised ? 'a year (annualised)' : 'over the period');

/** The money put in minus taken out up to each month-end: the value chart's second line. */
export function cumulativeNetFlows(points: readonly ValueHistoryPoint[]): number[] {
  let sum = 0;
  return points.map((p) => (sum += p.net_flows));
}

/** "What the asset is" for a transaction: its description, else its id, else the portfolio as a whole (a fee or income on no asset). */
export function transactionAsset(t: Pick<TransactionLine, 'description' | 'asset_id'>): string {
  return t.description ?? t.asset_id ?? 'The portfolio as a whole';
}

/** The reason a period is not available, as a sentence: "Not enough history: …" with its first letter raised. */
export function sentence(text: string): string {
  const t = text.trim();
  const body = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(body) ? body : `${body}.`;
}
