import { isoDateToSerial } from './excel-dates';

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

/**
 * A double carrying its display format: the cell value Microsoft made current in ExcelApi 1.19
 * (DoubleCellValue.numberFormat), deprecating FormattedNumber in its favour. The value is the
 * same number; only hosts with ExcelApi 1.19 know the format on a double.
 */
export interface FormattedDouble {
  type: 'Double';
  basicValue: number;
  numberFormat: string;
}

/** How a number with a display format is written for the host at hand: see numberStyle in functions/asset-card.ts. */
export type NumberStyle = 'FormattedNumber' | 'Double';

export function formatted(value: number, numberFormat: string, style: NumberStyle): FormattedNumber | FormattedDouble {
  return style === 'Double' ? { type: 'Double', basicValue: value, numberFormat } : { type: 'FormattedNumber', basicValue: value, numberFormat };
}

export function money(value: number, currency: string): FormattedNumber {
  return { type: 'FormattedNumber', basicValue: value, numberFormat: moneyFormat(currency) };
}

/** Wire percents are percent units (12.5); Excel shows fractions with a % format (0.125 → 12.5%). */
export function percent(percentUnits: number): FormattedNumber {
  return { type: 'FormattedNumber', basicValue: Math.round(percentUnits * 1e6) / 1e8, numberFormat: PERCENT_FORMAT };
}

export const DATE_FORMAT = 'yyyy-mm-dd';

/** A YYYY-MM-DD date as an Excel date: its serial number, shown as a date (sortable, and charts read it as time). */
export function excelDate(isoDate: string): FormattedNumber {
  return { type: 'FormattedNumber', basicValue: isoDateToSerial(isoDate), numberFormat: DATE_FORMAT };
}
