/**
 * What a money-weighted return figure measures, and its label. Held a year or more, it is the
 * IRR, a yearly rate; held under a year, the build states the period's own return instead
 * (reports/build/returns.ts: annualising three weeks' gain into "+32 % a year" states a rate
 * nobody earned), and every writer labels it so. The period follows from the purchase dates and
 * as_of alone, so the PDF and the xlsx read it from the data without a field of its own.
 */
import { isAnnualisedSpan, spanOfDates } from '../../src/returns';
import type { Holding } from '../report-data';

export interface ReturnPeriod {
  /** Days from the (first) purchase to as_of. */
  days: number;
  /** Whether the figure is a yearly rate (held a year or more). */
  annualised: boolean;
}

function period(purchaseDates: Iterable<string>, asOf: string): ReturnPeriod {
  const days = spanOfDates([asOf, ...purchaseDates]);
  return { days, annualised: isAnnualisedSpan(days) };
}

export function holdingPeriod(h: Pick<Holding, 'purchase_date'>, asOf: string): ReturnPeriod {
  return period([h.purchase_date], asOf);
}

/** The portfolio's period runs from its first purchase. */
export function portfolioPeriod(holdings: Iterable<Pick<Holding, 'purchase_date'>>, asOf: string): ReturnPeriod {
  return period((function* () {
    for (const h of holdings) yield h.purchase_date;
  })(), asOf);
}

const daysText = (days: number) => `${days} day${days === 1 ? '' : 's'}`;

/** "Return a year (IRR)", or "Return over 21 days" when the figure is the period's own return. */
export function moneyWeightedLabel(p: ReturnPeriod): string {
  return p.annualised ? 'Return a year (IRR)' : `Return over ${daysText(p.days)}`;
}

/** A short note beneath a figure under a year: "21 days, not annualised". */
export function notAnnualisedNote(p: ReturnPeriod): string {
  return `${daysText(p.days)}, not annualised`;
}
