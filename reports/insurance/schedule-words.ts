/** The schedule's words in its language (the `insurance` catalogue area), shared by its PDF and workbook. */
import { brandText } from '../../src/brand';
import { translator, type Translator } from '../../src/i18n';
import { insuranceStatusWord, type InsuranceStatus } from '../../src/insurance';
import { segmentName } from '../client-words';
import type { ScheduleData, ScheduleItem } from './schedule-data';

export const scheduleTranslator = (data: Pick<ScheduleData, 'language'>): Translator => translator(data.language);


export const statusWords = (tr: Translator, status: InsuranceStatus): string => insuranceStatusWord(tr, status);

/** The insurer as the schedule names it; the items no insurer covers are "Not insured". */
export const insurerWords = (tr: Translator, data: Pick<ScheduleData, 'insurer'>): string => data.insurer ?? tr.t('insurance.schedule_no_insurer');

/** "Watches · Serial number 7Y4512 · Policy FA-1": what the description's second line says. */
export function detailWords(tr: Translator, i: ScheduleItem): string {
  return [
    i.segment === null ? undefined : segmentName(tr, i.segment),
    i.serial === null ? undefined : tr.t('insurance.schedule_serial', { serial: i.serial }),
    i.policy === null ? undefined : tr.t('insurance.schedule_policy', { policy: i.policy }),
  ]
    .filter((x): x is string => x !== undefined)
    .join(' · ');
}

/** Where the line's valuation came from: the month-end's (reused) or this schedule's own call, of the live service or the sandbox. */
export const sourceWords = (tr: Translator, data: Pick<ScheduleData, 'sandbox'>, i: ScheduleItem): string =>
  tr.t('insurance.schedule_source_of', { source: i.source === 'month-end' ? 'month_end' : 'service', sandbox: data.sandbox ? 'yes' : 'no' });

/**
 * The cover letter: the firm's (`insurance_letter` in the brand file, in the client's language,
 * else the firm's with a warning), else the house's paragraph saying what the proposed values are.
 */
export function letterParagraphs(tr: Translator, data: ScheduleData, warn: (line: string) => void): string[] {
  const firm = data.brand ? brandText(data.brand, 'insurance_letter', tr.lang, { portfolio: data.portfolio, warn }) : [];
  if (firm.length > 0) return firm;
  return [
    tr.t('insurance.schedule_letter', {
      date: tr.date(data.as_of),
      basis: data.basis,
      step: tr.money(data.round, data.currency, data.round % 1 === 0 ? 0 : 2),
    }),
  ];
}
