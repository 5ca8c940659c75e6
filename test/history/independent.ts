/**
 * The standard periods' returns computed again from the issues' definitions, sharing no code with
 * src/performance: each calendar month split at large external flows (issue 34), each piece by
 * Modified Dietz (a flow on day d of a piece of D days weighted (D − d) / D), all chain-linked; the
 * money-weighted return as the IRR of the start value, the flows on their dates and the end value
 * (actual/365), solved by bisection; a period longer than a year annualised, a shorter one the
 * period's own return.
 */
export type Flow = { date: string; amount: number; type: string };

const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
const days = (a: string, b: string) => dayNumber(b) - dayNumber(a);
/** Purchases, sales and transfers change what is held; fees and income do not, and never split a month. */
const holdingChanges = (f: Flow) => ['buy', 'sell', 'transfer_in', 'transfer_out'].includes(f.type);

/** The end of the month `n` months before `date`'s month. */
export function monthEndBack(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n + 1, 0)).toISOString().slice(0, 10);
}

/** Modified Dietz growth factor of one piece over the flows given to it. */
function dietzGrowth(from: string, start: number, to: string, end: number, flows: Flow[]): number {
  const D = days(from, to);
  const net = flows.reduce((s, f) => s + f.amount, 0);
  const weighted = flows.reduce((s, f) => s + f.amount * (D === 0 ? 1 : days(f.date, to) / D), 0);
  if (start === 0 && end === 0 && flows.length === 0) return 1;
  return 1 + (end - start - net) / (start + weighted);
}

/**
 * One month's growth factor (issue 34). Walking the month's days: the book value is the month's
 * start plus the purchases less sales so far; a day whose purchases less sales are more than 10 %
 * of it (any, when it is nil) ends the piece before at the book value and starts one at the book
 * value plus that day's purchases less sales, with that day's fees and income in it at weight 1.
 * A sale of more than the book value ends the piece before at the proceeds and starts the next at
 * 0. The tool's two rarer rules (a sale that empties the portfolio at a month-end of 0, fees while
 * nothing is held) do not arise in this ledger: this function refuses rather than guess them.
 */
function monthGrowth(from: string, start: number, to: string, end: number, flows: Flow[], inception: boolean): number {
  const inMonth = flows.filter((f) => (inception ? f.date >= from : f.date > from) && f.date <= to);
  let growth = 1;
  let pieceFrom = from;
  let pieceStart = start;
  let pieceFlows: Flow[] = [];
  let book = start;
  for (const day of [...new Set(inMonth.map((f) => f.date))].sort()) {
    const ofDay = inMonth.filter((f) => f.date === day);
    const trades = ofDay.filter(holdingChanges).reduce((s, f) => s + f.amount, 0);
    const large = trades !== 0 && (book <= 0 || Math.abs(trades) > 0.1 * book * (1 + 1e-9));
    if (!large) {
      pieceFlows.push(...ofDay);
      book += trades;
      continue;
    }
    const endOfPiece = Math.max(book, -trades);
    if (day !== pieceFrom) {
      if (pieceStart === 0 && endOfPiece === 0 && pieceFlows.length > 0) throw new Error(`fees or income while nothing is held (${pieceFrom} to ${day}): not covered here`);
      growth *= dietzGrowth(pieceFrom, pieceStart, day, endOfPiece, pieceFlows);
    }
    pieceFrom = day;
    pieceStart = endOfPiece + trades;
    pieceFlows = ofDay.filter((f) => !holdingChanges(f));
    book = pieceStart;
  }
  if (end === 0 && pieceStart > 0 && pieceFrom !== from) throw new Error(`a month that ends with nothing held after a split (${to}): not covered here`);
  return growth * dietzGrowth(pieceFrom, pieceStart, to, end, pieceFlows);
}

function irrAnnual(cash: { date: string; amount: number }[], to: string): number {
  // Value at `to` of every cash flow, growing at R a year: money in negative, the end value positive.
  const npv = (r: number) => cash.reduce((s, c) => s + c.amount * Math.pow(1 + r, days(c.date, to) / 365), 0);
  let lo = -0.99;
  let hi = 10;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    // More growth makes the money put in worth more at the end: npv falls as r rises.
    if (npv(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface Expected {
  from: string;
  twr_percent: number;
  mwr_percent: number;
  start_value: number;
  end_value: number;
  net_flows: number;
}

/** One period's expected figures from `from` to `to`, `values` being the recorded month-end values. */
export function expectedPeriod(from: string, to: string, values: Map<string, number>, flows: Flow[], inception: boolean): Expected {
  const start = inception ? 0 : values.get(from)!;
  const end = values.get(to)!;
  // Months: from → each month-end between → to.
  const points = [from];
  for (let m = monthEndBack(from, 0) === from ? monthEndBack(from, -1) : monthEndBack(from, 0); m < to; m = monthEndBack(m, -1)) points.push(m);
  points.push(to);
  let growth = 1;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const first = inception && i === 1;
    growth *= monthGrowth(a, first ? 0 : values.get(a)!, b, values.get(b)!, flows, first);
  }
  const span = days(from, to);
  const yearAfter = new Date(`${from}T00:00:00Z`);
  yearAfter.setUTCFullYear(yearAfter.getUTCFullYear() + 1);
  const annualised = to > yearAfter.toISOString().slice(0, 10);
  const inside = flows.filter((f) => (inception ? f.date >= from : f.date > from) && f.date <= to);
  const annual = irrAnnual([...(start !== 0 ? [{ date: from, amount: -start }] : []), ...inside.map((f) => ({ date: f.date, amount: -f.amount })), { date: to, amount: end }], to);
  const twr = annualised ? Math.pow(growth, 365 / span) - 1 : growth - 1;
  const mwr = annualised ? annual : Math.pow(1 + annual, span / 365) - 1;
  return { from, twr_percent: twr * 100, mwr_percent: mwr * 100, start_value: start, end_value: end, net_flows: inside.reduce((s, f) => s + f.amount, 0) };
}

/** The six standard periods at `asOf` (3 years and more: undefined when the history does not reach). */
export function expectedPeriods(asOf: string, values: Map<string, number>, flows: Flow[]): Record<string, Expected | null> {
  const month = Number(asOf.slice(5, 7));
  const first = flows.map((f) => f.date).sort()[0]!;
  const starts: Record<string, string> = {
    mtd: monthEndBack(asOf, 1),
    qtd: monthEndBack(asOf, ((month - 1) % 3) + 1),
    ytd: monthEndBack(asOf, month),
    '1y': monthEndBack(asOf, 12),
    '3y': monthEndBack(asOf, 36),
  };
  const out: Record<string, Expected | null> = {};
  for (const [key, from] of Object.entries(starts)) out[key] = values.has(from) && first <= from ? expectedPeriod(from, asOf, values, flows, false) : null;
  out.since_inception = expectedPeriod(first, asOf, values, flows, true);
  return out;
}
