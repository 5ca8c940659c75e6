import { isRealDate } from '../wire';
import { TRANSACTION_TYPES, type LedgerEntry, type LedgerProblem, type LedgerSource, type Lot, type Realisation } from './types';

/**
 * What a ledger holds on an as-of date, lots matched by name or first in, first out (issues 23, 34). Pure: the
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
  /** For the analyst: each sale first in, first out among lots of different costs, which lot it took (issue 34). */
  notes: string[];
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

/** The stock a row moves: a wine's case and bottles are one (its case's id); anything else its asset. */
const stockKey = (e: LedgerEntry) => key(e.portfolio, e.stock?.id ?? e.assetId!);

/** A row's quantity in its stock's units: bottles for a wine stock, else the row's own. */
const stockQuantity = (e: LedgerEntry) => e.quantity! * (e.stock?.bottlesPerUnit ?? 1);

/** Lot names are free text, compared without regard to case or surrounding spaces ("Lot A" is "lot a"). */
const nameKey = (portfolio: string, name: string) => `${portfolio}\u0000${name.trim().replace(/\s+/g, ' ').toLowerCase()}`;

const fmt = (n: number) => String(Number(n.toPrecision(12)));

const money = (n: number, currency: string) => `${n.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 })} ${currency}`;

/** "lot "B"" or "the lot bought on 2025-01-15 (ledger.csv row 3)": how notes and refusals name a lot. */
export function describeLot(lot: Pick<Lot, 'name' | 'opened' | 'source'>): string {
  if (lot.name !== undefined) return `lot "${lot.name}" (bought on ${lot.opened})`;
  const file = lot.source.file.split(/[\\/]/).pop() ?? lot.source.file;
  return `the lot bought on ${lot.opened} (${file}${lot.source.sheet ? ` (sheet ${lot.source.sheet})` : ''} row ${lot.source.row})`;
}

/**
 * The lots held on `asOf` and the sales matched against them: a sale or transfer out that names
 * a lot (`lot`) takes from it (specific identification); one that names none takes first in,
 * first out, and where the lots it could have taken cost differently a note says which it took.
 * `entries` may come in any order and from several portfolios (lots are per portfolio and
 * stock). Entries dated after `asOf` are left out and counted.
 */
export function buildLots(entries: readonly LedgerEntry[], asOf: string): LotsResult {
  const problems: LedgerProblem[] = [];
  const notes: string[] = [];
  const refuse = (e: LedgerEntry, field: string, reason: string) => problems.push({ portfolio: e.portfolio, source: e.source, field, reason });

  let afterAsOf = 0;
  const dated: LedgerEntry[] = [];
  for (const e of entries) {
    if (typeof e.date !== 'string' || !isRealDate(e.date)) refuse(e, 'date', `"${String(e.date)}" is not a date; allowed: a calendar day written YYYY-MM-DD`);
    else if (e.date > asOf) afterAsOf++;
    else dated.push(e);
  }
  dated.sort(ledgerOrder);

  // The first day each stock is bought or transferred in anywhere in the ledger (after the as-of
  // date too): a sale before it is "a sale before the purchase". Likewise each lot name's first buy.
  const firstOpened = new Map<string, string>();
  const firstNamed = new Map<string, LedgerEntry>();
  for (const e of [...entries].filter((x) => typeof x.date === 'string' && isRealDate(x.date)).sort(ledgerOrder)) {
    if ((e.type === 'buy' || e.type === 'transfer_in') && e.assetId) {
      const k = stockKey(e);
      const d = firstOpened.get(k);
      if (d === undefined || e.date < d) firstOpened.set(k, e.date);
      if (e.lot !== undefined && !firstNamed.has(nameKey(e.portfolio, e.lot))) firstNamed.set(nameKey(e.portfolio, e.lot), e);
    }
  }

  const open = new Map<string, Lot[]>();
  /** Every lot opened so far under its name (emptied ones too: a name stays taken). */
  const named = new Map<string, { lot: Lot; stock: string }>();
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
    } else if (e.lot !== undefined) {
      refuse(e, 'lot', `a ${e.type} takes from no lot; allowed: lot on buy, sell, transfer_in and transfer_out rows`);
      continue;
    }
    const k = e.assetId ? stockKey(e) : '';

    if (e.type === 'buy' || e.type === 'transfer_in') {
      const lot: Lot = { portfolio: e.portfolio, assetId: e.assetId!, opened: e.date, quantity: stockQuantity(e), cost: e.amount, currency: e.currency, source: e.source };
      if (e.stock && e.unit) lot.stock = { id: e.stock.id, unit: e.unit };
      if (e.lot !== undefined) {
        const taken = named.get(nameKey(e.portfolio, e.lot));
        if (taken) {
          refuse(e, 'lot', `"${e.lot}" is already the name of ${describeLot(taken.lot)} of ${taken.lot.assetId}; allowed: a name no other lot of portfolio ${e.portfolio} has (names are compared without regard to case)`);
          continue;
        }
        lot.name = e.lot;
        named.set(nameKey(e.portfolio, e.lot), { lot, stock: k });
      }
      const lots = open.get(k) ?? [];
      lots.push(lot);
      open.set(k, lots);
      accepted.push(e);
      continue;
    }

    if (e.type === 'sell' || e.type === 'transfer_out') {
      const quantity = stockQuantity(e);
      const verb = e.type === 'sell' ? 'sells' : 'transfers out';
      const out = e.type === 'sell' ? realisations : transfersOut;
      if (e.lot !== undefined) {
        const lot = namedLot(e, k, named, firstNamed, open, refuse);
        if (!lot) continue;
        if (quantity > lot.quantity * (1 + QUANTITY_TOLERANCE)) {
          refuse(e, 'quantity', `${verb} ${fmt(e.quantity!)} from ${describeLot(lot)} but ${fmt(lot.quantity / (e.stock?.bottlesPerUnit ?? 1))} ${e.stock ? `(${fmt(lot.quantity)} bottles) ` : ''}is left of it on ${e.date}; allowed: at most what is left of the lot`);
          continue;
        }
        takeFrom([lot], e, Math.min(quantity, lot.quantity), out);
      } else {
        const have = held(k);
        if (have <= 0) {
          const first = firstOpened.get(k);
          if (first === undefined) {
            refuse(e, 'asset_id', `${verb} ${e.assetId}, which is never bought or transferred in in portfolio ${e.portfolio}; allowed: an asset held on ${e.date}`);
          } else if (first > e.date) {
            refuse(e, 'date', `${verb} ${e.assetId} on ${e.date}, before its first purchase (${first}); allowed: a date on or after ${first}`);
          } else {
            refuse(e, 'quantity', `${verb} ${fmt(e.quantity!)} of ${e.assetId} but none is held on ${e.date}; allowed: at most what is held`);
          }
          continue;
        }
        if (quantity > have * (1 + QUANTITY_TOLERANCE)) {
          const perUnit = e.stock?.bottlesPerUnit ?? 1;
          const unit = e.stock ? ` (${e.unit === 'case' ? 'in cases of 12 × 75 cl' : 'in bottles'})` : '';
          refuse(e, 'quantity', `${verb} ${fmt(e.quantity!)} of ${e.assetId}${unit} but ${fmt(have / perUnit)} is held on ${e.date}; allowed: at most ${fmt(have / perUnit)}`);
          continue;
        }
        const candidates = open.get(k)!;
        const taken = takeFrom(candidates, e, Math.min(quantity, have), out);
        const note = firstInFirstOutNote(e, candidates, taken);
        if (note) notes.push(note);
      }
      const left = (open.get(k) ?? []).filter((l) => l.quantity > 0);
      if (left.length > 0) open.set(k, left);
      else open.delete(k);
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
  return { lots, realisations, transfersOut, problems, accepted, afterAsOf, notes };
}

/**
 * The lot a sale or transfer out names, or undefined after refusing the row: a name no lot of
 * the portfolio has (or one bought only later), a lot of another asset, a lot already emptied.
 */
function namedLot(
  e: LedgerEntry,
  k: string,
  named: ReadonlyMap<string, { lot: Lot; stock: string }>,
  firstNamed: ReadonlyMap<string, LedgerEntry>,
  open: ReadonlyMap<string, Lot[]>,
  refuse: (e: LedgerEntry, field: string, reason: string) => void,
): Lot | undefined {
  const found = named.get(nameKey(e.portfolio, e.lot!));
  const heldNames = (open.get(k) ?? []).filter((l) => l.name !== undefined).map((l) => `"${l.name}"`);
  const allowed = heldNames.length > 0 ? `a lot of ${e.assetId} held on ${e.date}: ${heldNames.join(', ')}` : `no lot of ${e.assetId} held on ${e.date} has a name: leave lot empty (first in, first out) or name the lot on its buy row`;
  if (!found) {
    const later = firstNamed.get(nameKey(e.portfolio, e.lot!));
    if (later && later.date > e.date) refuse(e, 'lot', `lot "${e.lot}" is bought on ${later.date}, after this ${e.type} on ${e.date}; allowed: ${allowed}`);
    else refuse(e, 'lot', `no lot named "${e.lot}" is bought in portfolio ${e.portfolio}; allowed: ${allowed}`);
    return undefined;
  }
  if (found.stock !== k) {
    refuse(e, 'lot', `lot "${e.lot}" is ${found.lot.assetId}, not ${e.assetId}; allowed: ${allowed}`);
    return undefined;
  }
  if (!(found.lot.quantity > 0)) {
    refuse(e, 'lot', `${describeLot(found.lot)} was sold or transferred out in full before ${e.date}; allowed: ${allowed}`);
    return undefined;
  }
  return found.lot;
}

/**
 * Takes `quantity` (in stock units) out of `lots` in their order, each part of the sale matched
 * against one lot: the lot's cost pro rata to the quantity taken from it, the sale's proceeds pro
 * rata to the quantity sold. A lot emptied is left at quantity 0, its whole remaining cost
 * realised (no rounding residue). Answers the lots taken from, with what each had before.
 */
function takeFrom(lots: readonly Lot[], sale: LedgerEntry, quantity: number, out: Realisation[]): Lot[] {
  const taken: Lot[] = [];
  const saleQuantity = stockQuantity(sale);
  let left = quantity;
  let proceedsLeft = (sale.amount * quantity) / saleQuantity;
  const remaining = lots.filter((l) => l.quantity > 0);
  for (let i = 0; i < remaining.length && left > 0; i++) {
    const lot = remaining[i]!;
    taken.push({ ...lot });
    // Taking all of the lot, within the tolerance, empties it.
    const emptied = left >= lot.quantity * (1 - QUANTITY_TOLERANCE);
    const take = emptied ? lot.quantity : left;
    const cost = emptied ? lot.cost : (lot.cost * take) / lot.quantity;
    // The sale's last part takes what is left of its proceeds, so the parts add up exactly.
    const lastPart = left - take <= quantity * QUANTITY_TOLERANCE || i === remaining.length - 1;
    const proceeds = lastPart ? proceedsLeft : (proceedsLeft * take) / left;
    out.push(realisation(lot, sale, take, cost, proceeds));
    proceedsLeft -= proceeds;
    if (emptied) {
      lot.quantity = 0;
      lot.cost = 0;
      left = lastPart ? 0 : left - take;
    } else {
      lot.quantity -= take;
      lot.cost -= cost;
      left = 0;
    }
  }
  return taken;
}

/**
 * The analyst's note for a sale first in, first out among lots of different costs: which lot it
 * took, what the others cost, and that naming a lot would choose another. None when the lots it
 * could take from cost the same (each unit, in one currency) or there was one.
 */
function firstInFirstOutNote(sale: LedgerEntry, candidatesAfter: readonly Lot[], taken: readonly Lot[]): string | undefined {
  // The candidates as they were before the sale: the lots taken, as they were, and the rest untouched.
  const before = [...taken, ...candidatesAfter.filter((l) => !taken.some((t) => t.source === l.source) && l.quantity > 0)];
  if (before.length < 2) return undefined;
  const each = (l: Lot) => `${l.currency} ${Math.round((l.cost / l.quantity) * 100)}`;
  if (new Set(before.map(each)).size < 2) return undefined;
  const unit = sale.stock ? 'a bottle' : 'each';
  const costOf = (l: Lot) => `${money(l.cost / l.quantity, l.currency)} ${unit}`;
  const file = sale.source.file.split(/[\\/]/).pop() ?? sale.source.file;
  const others = before.filter((l) => !taken.includes(l));
  return (
    `${file}${sale.source.sheet ? ` (sheet ${sale.source.sheet})` : ''} row ${sale.source.row}: the ${sale.type === 'sell' ? 'sale' : 'transfer out'} of ${fmt(sale.quantity!)} ${sale.assetId} on ${sale.date} names no lot, so first in, first out took ` +
    `${taken.map((l) => `${describeLot(l)} at ${costOf(l)}`).join(' and ')}; ${others.map((l) => `${describeLot(l)} cost ${costOf(l)}`).join(', ')}. ` +
    `Naming the lot sold (a lot column on its buy row, in the holdings or transactions file, and on the sale's row) would choose another, and the realised gain would be that lot's.`
  );
}

function realisation(lot: Lot, sale: LedgerEntry, quantity: number, cost: number, proceeds: number): Realisation {
  const source: LedgerSource = sale.source;
  const r: Realisation = {
    portfolio: sale.portfolio,
    // The sale's asset: the bottles sold from a case are bottles.
    assetId: sale.assetId!,
    sold: sale.date,
    opened: lot.opened,
    // In the sale row's unit.
    quantity: quantity / (sale.stock?.bottlesPerUnit ?? 1),
    cost,
    costCurrency: lot.currency,
    proceeds,
    proceedsCurrency: sale.currency,
    source,
  };
  if (lot.name !== undefined) r.lot = lot.name;
  if (sale.unit !== undefined) r.unit = sale.unit;
  return r;
}
