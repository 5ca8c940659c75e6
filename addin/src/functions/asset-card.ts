/// <reference types="office-js" />
import type { Valuation } from '../../../src/wire';
import { formatted, moneyFormat, PERCENT_FORMAT, type NumberStyle } from '../shared/cell-values';
import type { ServiceSource } from '../shared/runtime';

/** Excel stores times as days since 1899-12-30; a formatted serial stays usable in formulas (=A2.[Valid until]-NOW()). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const TIME_FORMAT = 'yyyy-mm-dd hh:mm "UTC"';

const serial = (iso: string) => (Date.parse(iso) - EXCEL_EPOCH_MS) / 86_400_000;
const text = (value: string): Excel.StringCellValue => ({ type: 'String', basicValue: value });
const number = (value: number): Excel.DoubleCellValue => ({ type: 'Double', basicValue: value });

export function sourceLabel(source: ServiceSource): string {
  return `${source.service} (${source.sandbox ? 'sandbox' : 'live'})`;
}

/**
 * An asset's valuation as an Excel entity value (a card, like the Stocks data type): `=A2.Mid`
 * and `=A2.Score` work in formulas, and the card shows the value and where it came from first.
 * Property names are what users type after the dot, so they are short words. A stale card (the
 * last known answer, the service unreachable) says so in its text and title and carries
 * `Stale since` first.
 */
export function assetCard(v: Valuation, source: ServiceSource, staleSince: number | undefined, style: NumberStyle): Excel.EntityCellValue {
  const e = v.estimated_value;
  // Money, percentages and times keep their display format: as the host's current cell value for it.
  const money = (value: number) => formatted(value, moneyFormat(e.currency), style);
  const time = (iso: string) => formatted(serial(iso), TIME_FORMAT, style);
  const properties: Record<string, Excel.EntityPropertyType> = {
    // The last known answer while the service cannot be reached: said first, with when it stopped being valid.
    ...(staleSince !== undefined ? { 'Stale since': time(new Date(staleSince).toISOString()) } : {}),
    Mid: money(e.mid),
    Low: money(e.low),
    High: money(e.high),
    Currency: text(e.currency),
    Confidence: formatted(v.confidence, PERCENT_FORMAT, style),
    Score: number(v.service_score),
    Momentum: text(v.momentum),
    Segment: text(v.segment),
    'Asset id': text(v.asset_id),
    'As of': time(v.generated_at),
    ...(v.valid_until ? { 'Valid until': time(v.valid_until) } : {}),
    ...(v.data_points !== undefined ? { 'Data points': number(v.data_points) } : {}),
    'Market validated': { type: 'Boolean', basicValue: v.market_validated },
    Source: text(sourceLabel(source)),
  };
  const present = (names: string[]) => names.filter((n) => n in properties);
  return {
    type: 'Entity',
    text: `${v.brand} ${v.model}${staleSince !== undefined ? ' (stale)' : ''}`,
    properties,
    layouts: {
      card: {
        title: `${v.brand} ${v.model}${staleSince !== undefined ? ' (stale)' : ''}`,
        sections: [
          { layout: 'List', properties: present(['Stale since', 'Mid', 'Low', 'High', 'Confidence']) },
          { layout: 'List', title: 'Provenance', properties: present(['Source', 'As of', 'Valid until', 'Data points', 'Market validated', 'Asset id']) },
          { layout: 'List', title: 'Signals', collapsible: true, properties: present(['Score', 'Momentum', 'Segment', 'Currency']) },
        ],
      },
    },
  };
}

/**
 * Where a host cannot show entity values (before ExcelApi 1.16): the seven fields SVC.VALUATION
 * spills (low, mid, high, currency, confidence, score, asset id) as plain numbers and text. Such
 * a host has no formatted number values either (FormattedNumber is ExcelApi 1.16 too), so the
 * amounts are bare numbers beside their currency.
 */
export function valuationRow(v: Valuation): (string | number)[] {
  const e = v.estimated_value;
  return [e.low, e.mid, e.high, e.currency, v.confidence, v.service_score, v.asset_id];
}

/** Whether this Excel has an ExcelApi requirement set (false where Office cannot say). */
export function hasExcelApi(version: string): boolean {
  try {
    return typeof Office !== 'undefined' && Office.context?.requirements?.isSetSupported('ExcelApi', version) === true;
  } catch {
    return false;
  }
}

/**
 * Entity values from custom functions need ExcelApi 1.16 (Excel 365 / 2024 and Excel on
 * the web); older hosts would show #VALUE!, so they get the plain row.
 */
export const hostShowsCards = (): boolean => hasExcelApi('1.16');

/**
 * How a card writes a number with a display format: a double with its numberFormat where the
 * host has ExcelApi 1.19 (which added DoubleCellValue.numberFormat and deprecated
 * FormattedNumber), FormattedNumber on hosts with cards but not 1.19.
 */
export const numberStyle = (): NumberStyle => (hasExcelApi('1.19') ? 'Double' : 'FormattedNumber');
