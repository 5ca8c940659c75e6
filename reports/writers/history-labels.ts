/**
 * The portfolio history's words, shared by the PDF and the xlsx (issue 23): the standard periods
 * and the ledger's types as a client reads them. The JSON and CSV keep the codes.
 */
import { translator, type MessageKey, type Translator } from '../../src/i18n';
import type { PeriodFigures, PeriodKey, TransactionLine, ValueHistoryPoint } from '../report-data';

/** The standard periods in the reader's language: the glossary's words (common area). */
const PERIOD_KEYS: Record<PeriodKey, MessageKey> = {
  mtd: 'common.period_mtd',
  qtd: 'common.period_qtd',
  ytd: 'common.period_ytd',
  '1y': 'common.period_1y',
  '3y': 'common.period_3y',
  since_inception: 'common.since_inception',
};

const TRANSACTION_TYPE_KEYS: Record<TransactionLine['type'], MessageKey> = {
  buy: 'columns.tx_buy',
  sell: 'columns.tx_sell',
  fee: 'columns.tx_fee',
  income: 'columns.tx_income',
  transfer_in: 'columns.tx_transfer_in',
  transfer_out: 'columns.tx_transfer_out',
};

const EN = translator('en');

export const periodLabel = (key: PeriodKey, tr: Translator = EN): string => tr.t(PERIOD_KEYS[key]);
export const transactionTypeLabel = (type: TransactionLine['type'], tr: Translator = EN): string => tr.t(TRANSACTION_TYPE_KEYS[type]);

/** English labels, for writers not yet given a translator. */
export const PERIOD_LABELS = Object.fromEntries(Object.keys(PERIOD_KEYS).map((k) => [k, periodLabel(k as PeriodKey)])) as Record<PeriodKey, string>;
export const TRANSACTION_TYPE_LABELS = Object.fromEntries(Object.keys(TRANSACTION_TYPE_KEYS).map((k) => [k, transactionTypeLabel(k as TransactionLine['type'])])) as Record<TransactionLine['type'], string>;

/** How a period's returns are stated: a yearly rate for a period longer than a year, else the period's own return. */
export const returnBasis = (p: PeriodFigures, tr: Translator = EN): string => tr.t(p.annualised ? 'columns.basis_annualised' : 'columns.basis_period');

/** The money put in minus taken out up to each month-end: the value chart's second line. */
export function cumulativeNetFlows(points: readonly ValueHistoryPoint[]): number[] {
  let sum = 0;
  return points.map((p) => (sum += p.net_flows));
}

/** "What the asset is" for a transaction: its description, else its id, else the portfolio as a whole (a fee or income on no asset). */
export function transactionAsset(t: Pick<TransactionLine, 'description' | 'asset_id'>, tr: Translator = EN): string {
  return t.description ?? t.asset_id ?? tr.t('columns.whole_portfolio');
}

/** The reason a period is not available, as a sentence: "Not enough history: …" with its first letter raised. */
export function sentence(text: string): string {
  const t = text.trim();
  const body = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(body) ? body : `${body}.`;
}
