/** The insurance review's words shared by the PDF section and the xlsx sheet (issue 37): statuses and the review's terms. */
import type { InsuranceReview, InsuranceStatus } from '../../src/insurance';
import type { MessageKey, Translator } from '../../src/i18n';

const STATUS_KEY: Record<InsuranceStatus, MessageKey> = {
  'under-insured': 'insurance.status_under_insured',
  'over-insured': 'insurance.status_over_insured',
  covered: 'insurance.status_covered',
  'not-insured': 'insurance.status_not_insured',
};

/** A status as the client reads it ("Under-insured", "Unterversichert"); the JSON and CSV keep the code. */
export const statusLabel = (status: InsuranceStatus, tr: Translator): string => tr.t(STATUS_KEY[status]);

/** The estimate the replacement value is ("High estimate"). */
export const basisLabel = (review: Pick<InsuranceReview, 'basis'>, tr: Translator): string =>
  tr.t(review.basis === 'mid' ? 'insurance.mid' : 'insurance.high');
