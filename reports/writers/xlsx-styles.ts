import type { Style } from 'exceljs';
import type { ValueKind } from './holding-columns';
import { PALETTE } from './palette';
import { HOUSE_THEME, type Theme } from './brand-theme';

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

/** The styles that carry the house's or a firm's colours: header rows, the title, section titles. */
export interface ThemedStyles {
  header: Partial<Style>;
  title: Partial<Style>;
  section: Partial<Style>;
}

/**
 * A workbook's themed styles, made once per workbook (shared by identity, see cellStyles). A
 * firm's section titles are in its primary colour, which is checked for contrast on white;
 * its accent (unchecked as text) underlines them.
 */
export function themedStyles(theme: Theme): ThemedStyles {
  const house = theme === HOUSE_THEME;
  return {
    header: {
      font: { name: 'Calibri', bold: true, color: { argb: 'FFFFFFFF' }, size: 11 },
      fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${theme.primary}` } },
      alignment: { vertical: 'middle', wrapText: true },
      border: { bottom: thinRule },
    },
    title: { font: { name: 'Cambria', bold: true, size: 18, color: { argb: `FF${theme.primary}` } } },
    section: {
      font: { name: 'Cambria', bold: true, size: 13, color: { argb: `FF${house ? theme.accent : theme.primary}` } },
      border: { bottom: house ? thinRule : { style: 'thin', color: { argb: `FF${theme.accent}` } } },
    },
  };
}

const HOUSE_STYLES = themedStyles(HOUSE_THEME);
export const HEADER_STYLE = HOUSE_STYLES.header;
export const TITLE_STYLE = HOUSE_STYLES.title;
export const SECTION_STYLE = HOUSE_STYLES.section;
export const LABEL_STYLE: Partial<Style> = { font: { name: 'Calibri', color: { argb: `FF${PALETTE.muted}` } } };
export const NOTE_STYLE: Partial<Style> = { font: { name: 'Calibri', italic: true, color: { argb: `FF${PALETTE.muted}` } }, alignment: { wrapText: true, vertical: 'top' } };
export const SANDBOX_STYLE: Partial<Style> = { font: { name: 'Calibri', bold: true, color: { argb: `FF${PALETTE.negative}` } } };
export const TOTAL_LABEL_STYLE: Partial<Style> = { font: { name: 'Calibri', bold: true }, border: { top: thinRule } };
