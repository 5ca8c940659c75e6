import type { Style } from 'exceljs';
import type { ValueKind } from './holding-columns';
import { PALETTE } from './palette';

/** Excel number format of an amount in `currency`: symbol for the payout currencies, code otherwise. */
export function moneyFormat(currency: string): string {
  const symbol: Record<string, string> = { USD: '"$"', EUR: '"€"', GBP: '"£"' };
  const s = symbol[currency];
  return s ? `${s}#,##0.00;[Red]-${s}#,##0.00` : `#,##0.00 "${currency.replace(/"/g, '')}";[Red]-#,##0.00 "${currency.replace(/"/g, '')}"`;
}

/** Percent cells hold fractions (0.125) shown as 12.50 %: the data model's percent units are divided by 100. */
export const PERCENT_FORMAT = '0.00%';
/** Percentage points hold the number as given (1.25 is 1.25 points), shown signed with their unit. */
export const POINTS_FORMAT = '+0.00" pts";-0.00" pts";0.00" pts"';
export const DATE_FORMAT = 'yyyy-mm-dd';

const thinRule = { style: 'thin' as const, color: { argb: `FF${PALETTE.rule}` } };

/**
 * One shared style object per kind: exceljs recognises a style it has seen by object identity,
 * so sharing them keeps a 100,000-row sheet fast.
 */
export function cellStyles(currency: string): Record<ValueKind, Partial<Style>> {
  return {
    int: { numFmt: '0' },
    money: { numFmt: moneyFormat(currency) },
    percent: { numFmt: PERCENT_FORMAT },
    points: { numFmt: POINTS_FORMAT },
    ratio: { numFmt: '0.00' },
    rate: { numFmt: '0.000000' },
    text: {},
    date: { numFmt: DATE_FORMAT },
    bool: { alignment: { horizontal: 'center' } },
  };
}

export const HEADER_STYLE: Partial<Style> = {
  font: { name: 'Calibri', bold: true, color: { argb: 'FFFFFFFF' }, size: 11 },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${PALETTE.navy}` } },
  alignment: { vertical: 'middle', wrapText: true },
  border: { bottom: thinRule },
};

export const TITLE_STYLE: Partial<Style> = { font: { name: 'Cambria', bold: true, size: 18, color: { argb: `FF${PALETTE.navy}` } } };
export const SECTION_STYLE: Partial<Style> = {
  font: { name: 'Cambria', bold: true, size: 13, color: { argb: `FF${PALETTE.gold}` } },
  border: { bottom: thinRule },
};
export const LABEL_STYLE: Partial<Style> = { font: { name: 'Calibri', color: { argb: `FF${PALETTE.muted}` } } };
export const NOTE_STYLE: Partial<Style> = { font: { name: 'Calibri', italic: true, color: { argb: `FF${PALETTE.muted}` } }, alignment: { wrapText: true, vertical: 'top' } };
export const SANDBOX_STYLE: Partial<Style> = { font: { name: 'Calibri', bold: true, color: { argb: `FF${PALETTE.negative}` } } };
export const TOTAL_LABEL_STYLE: Partial<Style> = { font: { name: 'Calibri', bold: true }, border: { top: thinRule } };
