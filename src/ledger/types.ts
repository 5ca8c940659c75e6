import type { SegmentId } from '../wire';
import type { CoverInput } from '../insurance/types';

/**
 * A portfolio's ledger: what happened to it, one event per row (issue 23). A holdings file is a
 * ledger of buys (each holding bought on its purchase date); a transactions file says the rest
 * (sales, partial sales, fees, income, transfers). What is held on a day follows from the ledger,
 * lots matched first in, first out.
 */

/** The units a wine or spirits row's quantity may count (the `unit` column). */
export const LEDGER_UNITS = ['case', 'bottle'] as const;
export type LedgerUnit = (typeof LEDGER_UNITS)[number];

export const TRANSACTION_TYPES = ['buy', 'sell', 'fee', 'income', 'transfer_in', 'transfer_out'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/**
 * Money into the portfolio (the client paid it in) or out of it (the client took it out): buy,
 * fee and transfer_in are flows in; sell, income and transfer_out flows out.
 */
export const FLOW_DIRECTION: Record<TransactionType, 'in' | 'out'> = {
  buy: 'in',
  fee: 'in',
  transfer_in: 'in',
  sell: 'out',
  income: 'out',
  transfer_out: 'out',
};

/** Where a ledger row came from, for errors that name it. */
export interface LedgerSource {
  file: string;
  sheet?: string;
  /** The row in the file (a table's header is row 1; a JSON list's first item is row 1). */
  row: number;
}

/** The asset a transactions row names, as its descriptors say it (or as its asset id encodes them): what a lot bought by the row is valued as. */
export interface LedgerAsset {
  segment: SegmentId;
  brand: string;
  model: string;
  reference?: string;
  year?: number;
  size?: string;
  /** Named by an asset_id: the service is asked for the id, not the descriptors. */
  byId: boolean;
}

export interface LedgerEntry {
  portfolio: string;
  /** YYYY-MM-DD. */
  date: string;
  type: TransactionType;
  /** The asset the row is about; absent for a fee or income on the portfolio as a whole. */
  assetId?: string;
  /** The asset's descriptors, when a transactions row named the asset (a holdings file's buys keep their holding instead). */
  asset?: LedgerAsset;
  /** Units bought, sold or transferred (buy, sell, transfer_*), in `unit` for wine and spirits; absent for fee and income. */
  quantity?: number;
  /**
   * The unit `quantity` counts, for wine and spirits: as the row states it (`unit`), else as its
   * size implies (no size: the service's unit, a case of 12 × 75 cl for wine; a bottle for spirits).
   */
  unit?: LedgerUnit;
  /**
   * A wine held by the case and by the bottle as one stock (specific units, issue 34): the stock's
   * key (the case's asset id) and how many bottles one unit of `quantity` is (12 a case, 1 a
   * bottle). Lots of it count bottles, so part of a case can be sold and the rest held as bottles.
   */
  stock?: { id: string; bottlesPerUnit: number };
  /**
   * Specific identification (issue 34): on a buy or transfer in, the name of the lot it opens
   * (unique within the portfolio); on a sale or transfer out, the lot it takes from.
   */
  lot?: string;
  /** What was paid or received for the row, in `currency`: always positive, the type says the direction. */
  amount: number;
  /** ISO 4217. */
  currency: string;
  notes?: string;
  /** The cover of the lot a buy or transfer in opens (issue 37), as its row states it. */
  cover?: CoverInput;
  /** Its insured value or currency was refused: the lot's cover is unknown (the insurance review leaves it out). */
  coverRefused?: true;
  source: LedgerSource;
}

/** A lot held on a day: what is left of one buy (or transfer in) after the sales that took from it. */
export interface Lot {
  portfolio: string;
  /** The asset id of the row that opened it. */
  assetId: string;
  /** Its name, when the row that opened it named it (the `lot` column). */
  name?: string;
  /** Date of the buy that opened it. */
  opened: string;
  /** What is left, in the opening row's unit; for a wine stock (`stock`), in bottles. */
  quantity: number;
  /** Set for a wine held by the case and by the bottle as one stock: the opening row's unit and the stock's key. */
  stock?: { id: string; unit: LedgerUnit };
  /** What the remaining quantity cost, in the entry's currency (the buy's amount pro rata). */
  cost: number;
  currency: string;
  source: LedgerSource;
}

/** One sale (or part of one) matched against one lot: the realised gain's line. */
export interface Realisation {
  portfolio: string;
  assetId: string;
  /** The sale's date and the lot's opening date. */
  sold: string;
  opened: string;
  /** The lot's name, when its buy named it. */
  lot?: string;
  /** In the sale row's unit (a sale of 6 bottles from a case: 6). */
  quantity: number;
  /** The sale row's unit, for wine and spirits (case or bottle): what `quantity` counts. */
  unit?: LedgerUnit;
  /** The lot's cost of the quantity sold and the sale's proceeds for it, in their currencies. */
  cost: number;
  costCurrency: string;
  proceeds: number;
  proceedsCurrency: string;
  source: LedgerSource;
}

/** A ledger row refused, by row and field, with what is allowed (the rest of the portfolio is still reported). */
export interface LedgerProblem {
  portfolio: string;
  source: LedgerSource;
  field: string;
  reason: string;
}
