import { FLOW_DIRECTION, type LedgerEntry, type LedgerProblem, type TransactionType } from '../ledger/types';

/**
 * What a flow is, for the time-weighted return: `external` money buys or sells holdings (buy,
 * sell, transfer in or out) and changes the portfolio's book value, so a large one splits its
 * month; a `fee` or `income` is money paid in or out without a holding changing hands, an ordinary
 * flow of the sub-period it falls in.
 */
export type FlowKind = 'external' | 'fee' | 'income';

/** Each ledger row type's kind (a Record, so a new type must be given one). */
export const FLOW_KIND: Record<TransactionType, FlowKind> = {
  buy: 'external',
  sell: 'external',
  transfer_in: 'external',
  transfer_out: 'external',
  fee: 'fee',
  income: 'income',
};

/**
 * Money into or out of a portfolio, from the client's side: positive is money the client put in
 * (buy, fee, transfer_in), negative money taken out (sell, income, transfer_out). In the
 * reporting currency.
 */
export interface DatedFlow {
  /** YYYY-MM-DD. */
  date: string;
  amount: number;
  kind: FlowKind;
}

/**
 * Units of the reporting currency per unit of `currency` on `date` (1 for the reporting currency
 * itself). May throw (a missing rate): the row is then refused, not the whole ledger.
 */
export type RateFunction = (currency: string, date: string) => number;

/** `amount` of `currency` on `date` in the reporting currency, or the reason it cannot be. */
export function convert(rate: RateFunction, amount: number, currency: string, date: string): { value: number } | { reason: string } {
  let r: number;
  try {
    r = rate(currency, date);
  } catch (err) {
    return { reason: err instanceof Error ? err.message : String(err) };
  }
  if (!Number.isFinite(r) || r <= 0) return { reason: `no usable rate for ${currency} on ${date} (${String(r)})` };
  return { value: amount * r };
}

/**
 * The ledger's flows in the reporting currency, one per entry at its own date's rate, in the
 * entries' order. Pass the entries `buildLots` accepted: refused rows are not flows. A row whose
 * rate cannot be had is refused (field `currency`) and left out.
 */
export function ledgerFlows(entries: readonly LedgerEntry[], rate: RateFunction): { flows: DatedFlow[]; problems: LedgerProblem[] } {
  const flows: DatedFlow[] = [];
  const problems: LedgerProblem[] = [];
  for (const e of entries) {
    const c = convert(rate, e.amount, e.currency, e.date);
    if ('reason' in c) {
      problems.push({ portfolio: e.portfolio, source: e.source, field: 'currency', reason: c.reason });
      continue;
    }
    flows.push({ date: e.date, amount: FLOW_DIRECTION[e.type] === 'in' ? c.value : -c.value, kind: FLOW_KIND[e.type] });
  }
  return { flows, problems };
}
