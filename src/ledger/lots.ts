import { isRealDate } from '../wire';
import { TRANSACTION_TYPES, type LedgerEntry, type LedgerProblem, type LedgerSource, type Lot, type Realisation } from './types';

/**
 * What a ledger holds on an as-of date, lots matched first in, first out (issue 23). Pure: the
 * entries in, the lots, the sales matched against them and the refused rows out. A refused row
 * is left out and everything else is computed; nothing is thrown for a bad row.
 */

export interface LotsResult {
  /** What is held after the last entry on or before the as-of date: per asset, oldest lot first. */
  lots: Lot[];
  /** Every sale on or before the as-of date, one line per lot it was matched against. */
  realisations: Realisation[];
  /**
   * Transfers out, matched first in, first out like sales (proceeds: the value transferred out).
   * Kept apart from `realisations`: the asset left the portfolio but was not sold.
   */
  transfersOut: Realisation[];
  /** Rows refused, by row and field, with what is allowed. */
  problems: LedgerProblem[];
  /** The rows used (not refused, not after the as-of date), in ledger order: the flows come from these. */
  accepted: LedgerEntry[];
  /** Rows dated after the as-of date: left out (they belong to a later month-end) and counted. */
  afterAsOf: number;
}

/** Quantities are decimals typed by people: a sale within this share of what is held sells it all. */
const QUANTITY_TOLERANCE = 1e-9;

/**
 * Ledger order: by date, then by the row in its file (then file and sheet, so that equal rows of
 * two files still sort the same way every run). Entries of one day are applied in that order, so
 * a buy and a sale of the same day must come in the order they happened.
 */
export function ledgerOrder(a: LedgerEntry, b: LedgerEntry): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (a.source.row !== b.source.row) return a.source.row - b.source.row;
  if (a.source.file !== b.source.file) return a.source.file < b.source.file ? -1 : 1;
  const sa = a.source.sheet ?? '';
  const sb = b.source.sheet ?? '';
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

const key = (portfolio: string, assetId: string) => `${portfolio}\u0000${assetId}`;

const fmt = (n: number) => String(Number(n.toPrecision(12)));

/**
 * The lots held on `asOf` and the sales matched against them. `entries` may come in any order and
 * from several portfolios (lots are per portfolio and asset). Entries dated after `asOf` are
 * left out and counted.
 */
export function buildLots(entries: readonly LedgerEntry[], asOf: string): LotsResult {
  const problems: LedgerProblem[] = [];
  const refuse = (e: LedgerEntry, field: string, reason: string) => problems.push({ portfolio: e.portfolio, source: e.source, field, reason });

  let afterAsOf = 0;
  const dated: LedgerEntry[] = [];
  for (const e of entries) {
    if (typeof e.date !== 'string' || !isRealDate(e.date)) refuse(e, 'date', `"${String(e.date)}" is not a date; allowed: a calendar day written YYYY-MM-DD`);
    else if (e.date > asOf) afterAsOf++;
    else dated.push(e);
  }
  dated.sort(ledgerOrder);

  // The first day each asset is bought or transferred in anywhere in the ledger (after the as-of
  // date too): a sale before it is "a sale before the purchase".
  const firstOpened = new Map<string, string>();
  for (const e of entries) {
    if ((e.type === 'buy' || e.type === 'transfer_in') && e.assetId && typeof e.date === 'string' && isRealDate(e.date)) {
      const k = key(e.portfolio, e.assetId);
      const d = firstOpened.get(k);
      if (d === undefined || e.date < d) firstOpened.set(k, e.date);
    }
  }

  const open = new Map<string, Lot[]>();
  const held = (k: string) => (open.get(k) ?? []).reduce((s, l) => s + l.quantity, 0);
  const realisations: Realisation[] = [];
  const transfersOut: Realisation[] = [];
  const accepted: LedgerEntry[] = [];

  for (const e of dated) {
    if (!(TRANSACTION_TYPES as readonly string[]).includes(e.type)) {
      refuse(e, 'type', `"${String(e.type)}" is not a transaction type; allowed: ${TRANSACTION_TYPES.join(', ')}`);
      continue;
    }
    if (typeof e.amount !== 'number' || !Number.isFinite(e.amount) || e.amount < 0) {
      refuse(e, 'amount', `${String(e.amount)} is not an amount; allowed: a number 0 or more (the type says the direction)`);
      continue;
    }
    const moves = e.type === 'buy' || e.type === 'sell' || e.type === 'transfer_in' || e.type === 'transfer_out';
    if (moves) {
      if (!e.assetId) {
        refuse(e, 'asset_id', `a ${e.type} names no asset; allowed: the asset's id or its descriptors`);
        continue;
      }
      if (typeof e.quantity !== 'number' || !Number.isFinite(e.quantity) || e.quantity <= 0) {
        refuse(e, 'quantity', `${String(e.quantity)} is not a quantity for a ${e.type}; allowed: a number above 0`);
        continue;
      }
    }
    const k = e.assetId ? key(e.portfolio, e.assetId) : '';

    if (e.type === 'buy' || e.type === 'transfer_in') {
      const lots = open.get(k) ?? [];
      lots.push({ portfolio: e.portfolio, assetId: e.assetId!, opened: e.date, quantity: e.quantity!, cost: e.amount, currency: e.currency, source: e.source });
      open.set(k, lots);
      accepted.push(e);
      continue;
    }

    if (e.type === 'sell' || e.type === 'transfer_out') {
      const quantity = e.quantity!;
      const have = held(k);
      const verb = e.type === 'sell' ? 'sells' : 'transfers out';
      if (have <= 0) {
        const first = firstOpened.get(k);
        if (first === undefined) {
          refuse(e, 'asset_id', `${verb} ${e.assetId}, which is never bought or transferred in in portfolio ${e.portfolio}; allowed: an asset held on ${e.date}`);
        } else if (first > e.date) {
          refuse(e, 'date', `${verb} ${e.assetId} on ${e.date}, before its first purchase (${first}); allowed: a date on or after ${first}`);
        } else {
          refuse(e, 'quantity', `${verb} ${fmt(quantity)} of ${e.assetId} but none is held on ${e.date}; allowed: at most what is held`);
        }
        continue;
      }
      if (quantity > have * (1 + QUANTITY_TOLERANCE)) {
        refuse(e, 'quantity', `${verb} ${fmt(quantity)} of ${e.assetId} but ${fmt(have)} is held on ${e.date}; allowed: at most ${fmt(have)}`);
        continue;
      }
      const out = e.type === 'sell' ? realisations : transfersOut;
      matchFirstInFirstOut(open.get(k)!, e, Math.min(quantity, have), out);
      if (held(k) <= have * QUANTITY_TOLERANCE) open.delete(k);
      accepted.push(e);
      continue;
    }

    // fee or income: on the portfolio as a whole, or on an asset held that day.
    if (e.assetId && !(held(k) > 0)) {
      refuse(e, 'asset_id', `a ${e.type} on ${e.assetId}, which is not held on ${e.date}; allowed: an asset held that day, or no asset for the portfolio as a whole`);
      continue;
    }
    accepted.push(e);
  }

  const lots = [...open.values()].flat();
  return { lots, realisations, transfersOut, problems, accepted, afterAsOf };
}

/**
 * Takes `quantity` out of `lots` (oldest first), each part of the sale matched against one lot:
 * the lot's cost pro rata to the quantity taken from it, the sale's proceeds pro rata to the
 * quantity sold. A lot emptied leaves the list, its whole remaining cost realised (no rounding residue).
 */
function matchFirstInFirstOut(lots: Lot[], sale: LedgerEntry, quantity: number, out: Realisation[]): void {
  let left = quantity;
  let proceedsLeft = (sale.amount * quantity) / sale.quantity!;
  while (left > 0 && lots.length > 0) {
    const lot = lots[0]!;
    // Taking all of the lot, within the tolerance, empties it.
    const emptied = left >= lot.quantity * (1 - QUANTITY_TOLERANCE);
    const take = emptied ? lot.quantity : left;
    const cost = emptied ? lot.cost : (lot.cost * take) / lot.quantity;
    // The sale's last part takes what is left of its proceeds, so the parts add up exactly.
    const lastPart = left - take <= quantity * QUANTITY_TOLERANCE || lots.length === 1;
    const proceeds = lastPart ? proceedsLeft : (proceedsLeft * take) / left;
    out.push(realisation(lot, sale, take, cost, proceeds));
    proceedsLeft -= proceeds;
    if (emptied) {
      lots.shift();
      left = lastPart ? 0 : left - take;
    } else {
      lot.quantity -= take;
      lot.cost -= cost;
      left = 0;
    }
  }
}

function realisation(lot: Lot, sale: LedgerEntry, quantity: number, cost: number, proceeds: number): Realisation {
  const source: LedgerSource = sale.source;
  return {
    portfolio: sale.portfolio,
    assetId: lot.assetId,
    sold: sale.date,
    opened: lot.opened,
    quantity,
    cost,
    costCurrency: lot.currency,
    proceeds,
    proceedsCurrency: sale.currency,
    source,
  };
}
