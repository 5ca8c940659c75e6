/**
 * Numbers that carry their display format into the cell (Excel's FormattedNumber data type,
 * ExcelApi 1.16): the value stays a real number for arithmetic; the format shows the currency.
 */
export interface FormattedNumber {
  type: 'FormattedNumber';
  basicValue: number;
  numberFormat: string;
}

const MONEY_FORMATS: Record<string, string> = {
  USD: '[$$-en-US]#,##0',
  EUR: '[$€-x-euro2] #,##0',
  GBP: '[$£-en-GB]#,##0',
};

/** The number format for an amount in a currency; unknown codes are written after the number. */
export function moneyFormat(currency: string): string {
  return MONEY_FORMATS[currency] ?? `#,##0 "${currency.replace(/"/g, '')}"`;
}

export const PERCENT_FORMAT = '0.0%';

export function money(value: number, currency: string): FormattedNumber {
  return { type: 'FormattedNumber', basicValue: value, numberFormat: moneyFormat(currency) };
}

/** Wire percents are percent units (12.5); Excel shows fractions with a % format (0.125 → 12.5%). */
export function percent(percentUnits: number): FormattedNumber {
  return { type: 'FormattedNumber', basicValue: Math.round(percentUnits * 1e6) / 1e8, numberFormat: PERCENT_FORMAT };
}
