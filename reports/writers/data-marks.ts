/**
 * The words every page of a PDF and every printed sheet of a workbook carry when its figures are
 * not real: sandbox data, or amounts converted with an illustrative (invented) rates file. One
 * list, so the PDF's footer and the xlsx's header say the same.
 */
export function pageMarks(m: { sandbox: boolean; illustrativeRates?: boolean }): string[] {
  return [...(m.sandbox ? ['SANDBOX DATA'] : []), ...(m.illustrativeRates ? ['ILLUSTRATIVE RATES'] : [])];
}

/** The cover's (or Summary sheet's) sentence for illustrative rates, beside the sandbox warning. */
export const ILLUSTRATIVE_RATES_WARNING =
  'Amounts in other currencies were converted with illustrative exchange rates invented for demonstration, not the European Central Bank\'s or any market\'s: converted figures are not real. Not for client use.';
