/**
 * The portfolio history's words, shared by the PDF and the xlsx (issue 23): the standard periods
 * and the ledger's types as a client reads them. The JSON and CSV keep the codes.
 */
import type { MessageKey, Translator } from '../../src/i18n';
import type { PeriodFigures, PeriodKey, TransactionLine, ValueHistoryPoint } from '../report-data';
import { reasonSentence } from '../client-words';

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

// No English default translator: a writer that forgot the reader's language would not compile.
export const periodLabel = (key: PeriodKey, tr: Translator): string => tr.t(PERIOD_KEYS[key]);
export const transactionTypeLabel = (type: TransactionLine['type'], tr: Translator): string => tr.t(TRANSACTION_TYPE_KEYS[type]);

/** How a period's returns are stated: a yearly rate for a period longer than a year, else the period's own return. */
export const returnBasis = (p: PeriodFigures, tr: Translator): string => tr.t(p.annualised ? 'columns.basis_annualised' : 'columns.basis_period');

/** The money put in minus taken out up to each month-end: the value chart's second line. */
export function cumulativeNetFlows(points: readonly ValueHistoryPoint[]): number[] {
  let sum = 0;
  return points.map((p) => (sum += p.net_flows));
}

/** "What the asset is" for a transaction: its description, else its id, else the portfolio as a whole (a fee or income on no asset). */
export function transactionAsset(t: Pick<TransactionLine, 'description' | 'asset_id'>, tr: Translator): string {
  return t.description ?? t.asset_id ?? tr.t('columns.whole_portfolio');
}

/**
 * The periods table's footnotes: each reason once, in the reader's words, numbered in order of
 * first use; `noteFor` gives a reason's number (undefined for none).
 */
export function reasonFootnotes(tr: Translator): { notes: string[]; noteFor: (reason: string | undefined) => number | undefined } {
  const notes: string[] = [];
  const noteFor = (reason: string | undefined): number | undefined => {
    if (!reason) return undefined;
    const s = reasonSentence(tr, reason);
    const at = notes.indexOf(s);
    if (at >= 0) return at + 1;
    notes.push(s);
    return notes.length;
  };
  return { notes, noteFor };
}
