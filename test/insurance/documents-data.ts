/**
 * A report with an insurance review for the writer tests (issue 37): makeReportData's holdings,
 * each given cover so every status occurs, one renewing in 30 days and one insured in another
 * currency, reviewed by the one computation (src/insurance), as the report job does.
 */
import { insuranceReview, DEFAULT_INSURANCE_OPTIONS, type InsuranceOptions, type ReviewInput } from '../../src/insurance';
import type { Language } from '../../src/i18n';
import type { ReportData } from '../../reports/report-data';
import { makeReportData } from '../../fixtures/report-data';

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Cover of the i-th holding, as a fraction of its high estimate (null: not insured), with its insurer. */
const COVER: { ofHigh: number | null; insurer: string; policy: string; renewsIn?: number; currency?: string }[] = [
  { ofHigh: 0.5, insurer: 'Hiscox', policy: 'HX-1001', renewsIn: 30 },
  { ofHigh: 2, insurer: 'AXA Art', policy: 'AX-77' },
  { ofHigh: 1, insurer: 'Hiscox', policy: 'HX-1001' },
  { ofHigh: null, insurer: '', policy: '' },
  { ofHigh: 0.7, insurer: 'AXA Art', policy: 'AX-78', renewsIn: 90, currency: 'CHF' },
  { ofHigh: 0.95, insurer: 'Hiscox', policy: 'HX-1002', renewsIn: 5 },
];

export interface ReviewedReport {
  data: ReportData;
  /** What the review was given per holding: the cover as the files would state it. */
  inputs: ReviewInput[];
}

export function reportWithReview(language: Language = 'en', options: Partial<InsuranceOptions> = {}, holdings = 8): ReviewedReport {
  const base = makeReportData({ holdings, errors: 1, previous: true });
  const asOf = base.cover.as_of;
  // A made-up rate for the item insured in francs: the review takes amounts already in the report's currency.
  const chfPerReport = 0.9;
  const inputs: ReviewInput[] = [...base.holdings].map((h, i) => {
    const c = COVER[i % COVER.length]!;
    const insured = c.ofHigh === null ? null : Math.round(h.value_high * c.ofHigh);
    return {
      asset_id: h.asset_id,
      description: h.description,
      mid: h.current_value,
      high: h.value_high,
      insured_value: insured,
      ...(c.currency && insured !== null ? { insured_value_original: { amount: Math.round(insured * chfPerReport), currency: c.currency } } : {}),
      ...(c.ofHigh === null ? {} : { insurer: c.insurer, policy: c.policy, serial: `SN-${i}` }),
      ...(c.renewsIn === undefined ? {} : { renewal_date: addDays(asOf, c.renewsIn) }),
    };
  });
  const review = insuranceReview(inputs, { ...DEFAULT_INSURANCE_OPTIONS, asOf, ...options });
  review.items[0]!.under_insured_since = '2026-06-30';
  return { data: { ...base, language, insurance: review }, inputs };
}
