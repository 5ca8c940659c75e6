/** The insurance review's words shared by the PDF section and the xlsx sheet (issue 37): statuses and the review's terms. */
import { insuranceStatusWord, type InsuranceReview, type InsuranceStatus } from '../../src/insurance';
import type { Translator } from '../../src/i18n';


/** A status as the client reads it ("Under-insured", "Unterversichert"); the JSON and CSV keep the code. */
export const statusLabel = (status: InsuranceStatus, tr: Translator): string => insuranceStatusWord(tr, status);

/** The estimate the replacement value is ("High estimate"). */
export const basisLabel = (review: Pick<InsuranceReview, 'basis'>, tr: Translator): string =>
  tr.t(review.basis === 'mid' ? 'insurance.mid' : 'insurance.high');
