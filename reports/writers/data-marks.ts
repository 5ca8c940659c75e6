import { translator, type Translator } from '../../src/i18n';

/**
 * The words every page of a PDF and every printed sheet of a workbook carry when its figures are
 * not real: sandbox data, or amounts converted with an illustrative (invented) rates file. One
 * list, so the PDF's footer and the xlsx's header say the same, in the document's language.
 */
export function pageMarks(m: { sandbox: boolean; illustrativeRates?: boolean }, tr: Translator = translator('en')): string[] {
  return [...(m.sandbox ? [tr.t('pdf.mark_sandbox')] : []), ...(m.illustrativeRates ? [tr.t('pdf.mark_illustrative')] : [])];
}

/** The cover's (or Summary sheet's) sentence for illustrative rates, beside the sandbox warning; in English for the xlsx until it takes a language. */
export const ILLUSTRATIVE_RATES_WARNING = translator('en').t('pdf.illustrative_text');
