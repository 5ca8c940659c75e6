/**
 * The insurance review's shape (issue 37): one computation (review.ts) that the report's JSON,
 * CSV, PDF, xlsx, the broker's schedule and =SVC.COVER all read; none of them recomputes a
 * status or a gap.
 */

export const INSURANCE_STATUSES = ['under-insured', 'over-insured', 'covered', 'not-insured'] as const;
export type InsuranceStatus = (typeof INSURANCE_STATUSES)[number];

export const REPLACEMENT_BASES = ['mid', 'high'] as const;
/** Which estimate is the replacement value: `--replacement`, default 'high' (docs/decisions.md). */
export type ReplacementBasis = (typeof REPLACEMENT_BASES)[number];

export interface InsuranceOptions {
  basis: ReplacementBasis;
  /** Fraction, 0.10 = 10 %: under-insured when insured < replacement × (1 − tolerance). */
  tolerance: number;
  /** Over-insured when insured > overInsuredFactor × high, whatever the basis. */
  overInsuredFactor: number;
  /** A renewal within this many days of asOf (inclusive, not past) is named. */
  renewalWindowDays: number;
  /** YYYY-MM-DD: the report's as-of date. */
  asOf: string;
}

export const DEFAULT_INSURANCE_OPTIONS: Omit<InsuranceOptions, 'asOf'> = {
  basis: 'high',
  tolerance: 0.1,
  overInsuredFactor: 1.25,
  renewalWindowDays: 60,
};

/** What a run chooses (--replacement, --insurance-tolerance, or the config file's keys): the rest are fixed. */
export type InsuranceSettings = Pick<InsuranceOptions, 'basis' | 'tolerance'>;

/** Per holding or lot, parsed from the files (src/holdings, src/ledger). */
export interface CoverInput {
  /** In the row's currency, or insured_currency when given. */
  insured_value?: number;
  insured_currency?: string;
  insurer?: string;
  policy?: string;
  /** YYYY-MM-DD */
  renewal_date?: string;
  serial?: string;
}

/** One valued item as the review takes it: the report's own figures, already in the report's currency. */
export interface ReviewInput {
  /** The holding's row in its input file, as the report's holdings name it (several lots of one asset share an asset_id). */
  row?: number;
  asset_id: string;
  description: string;
  mid: number;
  high: number;
  /** The cover, with its insured value already converted to the report's currency (null: none). */
  insured_value: number | null;
  insured_value_original?: { amount: number; currency: string };
  insurer?: string;
  policy?: string;
  renewal_date?: string;
  serial?: string;
}

export interface InsuranceItem {
  /** The holding's row in its input file (the report's holdings row), when the review was built from a report. */
  row?: number;
  /** As the report names the holding. */
  asset_id: string;
  description: string;
  /** In the report's currency (converted with the report's FX, as other amounts). */
  insured_value: number | null;
  insured_value_original?: { amount: number; currency: string };
  mid: number;
  high: number;
  /** mid or high, by basis. */
  replacement_value: number;
  /** replacement_value − insured_value (positive = shortfall); null when not insured. */
  gap: number | null;
  status: InsuranceStatus;
  insurer: string | null;
  policy: string | null;
  renewal_date: string | null;
  /** Days from asOf to renewal_date (negative when past); null without a renewal date. */
  renews_in_days: number | null;
  serial: string | null;
  /** YYYY-MM-DD: the first month-end of the current unbroken run of under-insured (history), when known. */
  under_insured_since?: string;
}

export interface StatusTotal {
  count: number;
  insured_value: number;
  replacement_value: number;
}

export interface InsuranceTotals {
  by_status: Record<InsuranceStatus, StatusTotal>;
  /** Sum of the positive gaps of under-insured items. */
  total_shortfall: number;
  insured_value: number;
  replacement_value: number;
}

export interface InsuranceReview {
  basis: ReplacementBasis;
  /** A fraction: 0.1 is 10 %. */
  tolerance: number;
  over_insured_factor: number;
  renewal_window_days: number;
  /** Sorted by shortfall, largest first (then not insured by replacement value, then the rest). */
  items: InsuranceItem[];
  totals: InsuranceTotals;
  /** Items whose renewal_date is within renewalWindowDays of asOf, soonest first. */
  renewals: InsuranceItem[];
}
