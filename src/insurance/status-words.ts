/** A cover status in the reader's words: one table for the report's writers, the broker's schedule and SVC.COVER's card. */
import type { MessageKey, Translator } from '../i18n';
import type { InsuranceStatus } from './types';

const STATUS_KEY: Record<InsuranceStatus, MessageKey> = {
  'under-insured': 'insurance.status_under_insured',
  'over-insured': 'insurance.status_over_insured',
  covered: 'insurance.status_covered',
  'not-insured': 'insurance.status_not_insured',
};

/** "Under-insured", "Unterversichert": the JSON and CSV keep the code. */
export const insuranceStatusWord = (tr: Translator, status: InsuranceStatus): string => tr.t(STATUS_KEY[status]);
