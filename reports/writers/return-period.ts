/**
 * What a money-weighted return figure measures, and its label. Over a year or more it is the
 * IRR, a yearly rate; under a year, the build states the period's own return instead
 * (annualising three weeks' gain into "+32 % a year" states a rate nobody earned), and every
 * writer labels it so. A holding's period follows from its purchase date and as_of; the
 * portfolio's is the summary's `returns_since` (since the first flow of its ledger).
 */
import { translator, type Translator } from '../../src/i18n';
import { isAnnualisedSpan, spanOfDates } from '../../src/returns';
import type { Holding, ReportSummary } from '../report-data';

export interface ReturnPeriod {
  /** Days from the (first) purchase to as_of. */
  days: number;
  /** Whether the figure is a yearly rate (held a year or more). */
  annualised: boolean;
}

export function holdingPeriod(h: Pick<Holding, 'purchase_date'>, asOf: string): ReturnPeriod {
  const days = spanOfDates([asOf, h.purchase_date]);
  return { days, annualised: isAnnualisedSpan(days) };
}

/** The portfolio's period: since the first flow of its ledger, as the engine measured it. */
export function portfolioPeriod(s: Pick<ReportSummary, 'returns_since'>): ReturnPeriod {
  return s.returns_since ? { days: s.returns_since.days, annualised: s.returns_since.annualised } : { days: 0, annualised: false };
}

/** "Return a year (IRR)", or "Return over 21 days" when the figure is the period's own return. */
export function moneyWeightedLabel(p: ReturnPeriod, tr: Translator = translator('en')): string {
  return p.annualised ? tr.t('pdf.mwr_label_year') : tr.t('pdf.mwr_label_days', { days: p.days });
}

/** A short note beneath a figure under a year: "21 days, not annualised". */
export function notAnnualisedNote(p: ReturnPeriod, tr: Translator = translator('en')): string {
  return tr.t('pdf.not_annualised_days', { days: p.days });
}
