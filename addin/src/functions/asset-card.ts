/// <reference types="office-js" />
import type { Valuation } from '../../../src/wire';
import { money, PERCENT_FORMAT } from '../shared/cell-values';
import type { ServiceSource } from '../shared/runtime';

/** Excel stores times as days since 1899-12-30; a formatted serial stays usable in formulas (=A2.[Valid until]-NOW()). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const TIME_FORMAT = 'yyyy-mm-dd hh:mm "UTC"';

function time(iso: string): Excel.FormattedNumberCellValue {
  return { type: 'FormattedNumber', basicValue: (Date.parse(iso) - EXCEL_EPOCH_MS) / 86_400_000, numberFormat: TIME_FORMAT };
}
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
export function assetCard(v: Valuation, source: ServiceSource, staleSince?: number): Excel.EntityCellValue {
  const e = v.estimated_value;
  const properties: Record<string, Excel.EntityPropertyType> = {
    // The last known answer while the service cannot be reached: said first, with when it stopped being valid.
    ...(staleSince !== undefined ? { 'Stale since': time(new Date(staleSince).toISOString()) } : {}),
    Mid: money(e.mid, e.currency),
    Low: money(e.low, e.currency),
    High: money(e.high, e.currency),
    Currency: text(e.currency),
    Confidence: { type: 'FormattedNumber', basicValue: v.confidence, numberFormat: PERCENT_FORMAT },
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

/** Where a host cannot show entity values: the valuation row SVC.VALUATION spills. */
export function valuationRow(v: Valuation): (Excel.FormattedNumberCellValue | string | number)[] {
  const e = v.estimated_value;
  return [money(e.low, e.currency), money(e.mid, e.currency), money(e.high, e.currency), e.currency, v.confidence, v.service_score, v.asset_id];
}

/**
 * Entity values from custom functions need ExcelApi 1.16 (Excel 365 / 2024 and Excel on the
 * web); older hosts would show #VALUE!, so they get the plain row.
 */
export function hostShowsCards(): boolean {
  try {
    return typeof Office !== 'undefined' && Office.context?.requirements?.isSetSupported('ExcelApi', '1.16') === true;
  } catch {
    return false;
  }
}
