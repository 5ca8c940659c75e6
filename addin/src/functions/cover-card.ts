/// <reference types="office-js" />
import type { BatchValuationItem } from '../../../src/wire';
import { DEFAULT_INSURANCE_OPTIONS, insuranceStatusWord, reviewItem, type InsuranceItem, type InsuranceStatus } from '../../../src/insurance';
import type { Translator } from '../../../src/i18n';
import { formatted, money, moneyFormat, type FormattedNumber } from '../shared/cell-values';
import { hasExcelApi } from './asset-card';

/**
 * SVC.COVER's figures: the one insurance computation (src/insurance, the report's own), on the
 * batch answer of one asset with the insured value the cell gives. The replacement value is the
 * high estimate, the report's default basis (docs/decisions.md, "SVC.COVER").
 */
export function coverOf(v: BatchValuationItem, insured: number, asOf: string): InsuranceItem {
  const e = v.estimated_value;
  return reviewItem({ asset_id: v.asset_id, description: v.asset_id, mid: e.mid, high: e.high ?? e.mid, insured_value: insured }, { ...DEFAULT_INSURANCE_OPTIONS, asOf });
}


/** The status as the reader's words (Excel's display language), as the report names it. */
export const statusWord = (tr: Translator, status: InsuranceStatus): string => insuranceStatusWord(tr, status);

/**
 * The gap as the cell's value. Where the host shows cards on a number (ExcelApi 1.19: a
 * double's properties and layouts), the number carries a card: the status first, then the
 * figures it is computed from; `=A2.Status` gives the status code, stable across languages.
 * Property names are what users type after the dot, short words as on SVC.ASSET's card.
 * Elsewhere the gap alone, currency-formatted (the status is then SVC.COVER's card only).
 */
export function coverCell(item: InsuranceItem, currency: string, tr: Translator): FormattedNumber | Excel.DoubleCellValue {
  const gap = item.gap ?? 0;
  if (!hasExcelApi('1.19')) return money(gap, currency);
  const format = moneyFormat(currency);
  const amount = (value: number) => formatted(value, format, 'Double');
  const text = (value: string): Excel.StringCellValue => ({ type: 'String', basicValue: value });
  const status = statusWord(tr, item.status);
  return {
    type: 'Double',
    basicValue: gap,
    numberFormat: format,
    properties: {
      Status: text(item.status),
      Cover: text(status),
      Gap: amount(gap),
      Insured: amount(item.insured_value ?? 0),
      Replacement: amount(item.replacement_value),
      Mid: amount(item.mid),
      High: amount(item.high),
      Currency: text(currency),
      'Asset id': text(item.asset_id),
    },
    layouts: {
      card: {
        title: { property: 'Cover' },
        sections: [{ layout: 'List', properties: ['Gap', 'Insured', 'Replacement', 'High', 'Mid', 'Currency', 'Asset id', 'Status'] }],
      },
    },
  };
}
