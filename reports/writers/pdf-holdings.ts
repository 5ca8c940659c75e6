/** The PDF's holdings table (landscape), capped at PDF_MAX_HOLDINGS rows with one line for the rest. */
import { segmentById } from '../../src/wire';
import type { Holding, ReportData } from '../report-data';
import { PALETTE } from './palette';
import type { PdfPages } from './pdf-layout';
import { signedColour } from './pdf-signed-colour';
import { drawTable, type PdfCell, type PdfColumn, type PdfRow } from './pdf-table';
import { largestHoldings } from './largest-holdings';
import { holdingPeriod } from './return-period';
import { formatAmountIn, formatCompactMoney, formatInteger, formatMoney, formatPercent, formatRate, formatReturn } from './text-format';

const segmentName = (id: string) => segmentById(id)?.name ?? id;

function holdingsColumns(internal: boolean): PdfColumn[] {
  // 742 pt of the landscape page's 746: the purchase currency and rates ride under Cost and FX rate as second lines.
  return [
    { label: 'Row', width: 24, align: 'right' },
    { label: 'Holding', width: 144 },
    // The internal report shows each holding's portfolio where a client report shows its segment.
    { label: internal ? 'Portfolio' : 'Segment', width: 64 },
    { label: 'Qty', width: 22, align: 'right' },
    { label: 'Purchased', width: 50 },
    { label: 'Cost', width: 72, align: 'right' },
    { label: 'FX rate', width: 46, align: 'right' },
    { label: 'Value (range)', width: 74, align: 'right' },
    { label: 'Return', width: 44, align: 'right' },
    { label: 'IRR', width: 40, align: 'right' },
    { label: 'Weight', width: 38, align: 'right' },
    { label: 'Month', width: 40, align: 'right' },
    { label: 'Score', width: 28, align: 'right' },
    { label: 'Conf.', width: 28, align: 'right' },
    { label: 'Valid.', width: 28, align: 'center' },
  ];
}

/** Cost in the report's currency, with the price paid in its own currency beneath when that was another. */
function costCell(h: Holding, cur: string): PdfCell {
  const cost = formatMoney(h.purchase_price, cur, 0);
  return h.purchase_currency === cur ? { text: cost } : { text: cost, sub: formatAmountIn(h.purchase_price_original, h.purchase_currency) };
}

/** The purchase date's rate, and the as-of date's beneath; a dash for a purchase in the report's own currency. */
function fxCell(h: Holding, cur: string): PdfCell {
  return h.purchase_currency === cur ? { text: '–' } : { text: formatRate(h.fx_rate_purchase), sub: `now ${formatRate(h.fx_rate_as_of)}` };
}

/** The IRR, or for a holding held under a year its return over the days held, marked as such beneath. */
function irrCell(h: Holding, asOf: string): PdfCell {
  const cell = { text: formatReturn(h.money_weighted_return_percent), colour: signedColour(h.money_weighted_return_percent) };
  const held = holdingPeriod(h, asOf);
  return held.annualised || h.money_weighted_return_percent === null ? cell : { ...cell, sub: `${held.days} days` };
}

function* holdingRows(holdings: Iterable<Holding>, cur: string, asOf: string, internal = false): Iterable<PdfRow> {
  for (const h of holdings) {
    yield [
      String(h.row),
      { text: h.description, sub: internal ? `${segmentName(h.segment)} · ${h.asset_id}` : h.asset_id },
      internal ? h.portfolio : segmentName(h.segment),
      formatInteger(h.quantity),
      h.purchase_date,
      costCell(h, cur),
      fxCell(h, cur),
      { text: formatMoney(h.current_value, cur, 0), sub: `${formatCompactMoney(h.value_low, cur)}–${formatCompactMoney(h.value_high, cur)}` },
      { text: formatReturn(h.return_percent), colour: signedColour(h.return_percent) },
      irrCell(h, asOf),
      formatPercent(h.weight_percent),
      { text: formatPercent(h.month_on_month_percent, 1, true), colour: signedColour(h.month_on_month_percent) },
      String(h.service_score),
      h.confidence.toFixed(2),
      h.market_validated ? { text: 'Yes' } : { text: 'No', colour: PALETTE.warning, bold: true },
    ];
  }
}

/**
 * A client PDF lists at most this many holdings (about 60 pages); a larger portfolio shows its
 * largest ones and one line for the rest, and the complete list stays in the XLSX, CSV and JSON.
 * Without the cap a 100,000-holding PDF would take minutes and gigabytes (pages are buffered
 * until the page count is known).
 */
export const PDF_MAX_HOLDINGS = 1000;

export function drawHoldings(p: PdfPages, data: ReportData): void {
  const cur = data.cover.currency;
  const s = data.summary;
  p.addPage('landscape');
  p.section('Holdings');
  p.paragraph(
    `Values are mid estimates in ${cur}, with the low–high range beneath. Cost is what was paid, in ${cur} at the exchange rate of the purchase date, ` +
      `with the price in the currency it was paid in beneath when that was another; FX rate is ${cur} per unit of that currency on the purchase date, ` +
      'with today\'s rate beneath. Return is since purchase; IRR is the holding\'s money-weighted return a year, or for a holding held under a year its return over the days held beneath it, not annualised; Month is the change since the previous report. ' +
      '"Valid." shows whether the valuation is market validated.',
    { size: 8, colour: PALETTE.muted },
  );
  const internal = data.cover.audience === 'internal';
  let rows: Iterable<PdfRow> = holdingRows(data.holdings, cur, data.cover.as_of, internal);
  if (s.asset_count > PDF_MAX_HOLDINGS) {
    const { top, restCount, restValue, restCost } = largestHoldings(data.holdings, PDF_MAX_HOLDINGS);
    p.note(
      `This portfolio holds ${formatInteger(s.asset_count)} assets: the ${formatInteger(top.length)} largest by value are listed here, largest first, ` +
        `and the other ${formatInteger(restCount)} (${formatPercent(s.current_value > 0 ? (restValue / s.current_value) * 100 : 0)} of the value) on one line. ` +
        'The complete list is in the spreadsheet, CSV and JSON files of this report.',
    );
    const rest: PdfRow = ['', { text: `Other holdings (${formatInteger(restCount)})`, bold: true }, '', '', '', formatMoney(restCost, cur, 0), '', formatMoney(restValue, cur, 0), '', '', formatPercent(s.current_value > 0 ? (restValue / s.current_value) * 100 : 0), '', '', '', ''];
    rows = (function* () {
      yield* holdingRows(top, cur, data.cover.as_of, internal);
      yield rest;
    })();
  }
  drawTable(p, holdingsColumns(internal), rows, {
    fontSize: 7.5,
    totalRow: ['', 'Total', '', '', '', formatMoney(s.total_invested, cur, 0), '', formatMoney(s.current_value, cur, 0), formatPercent(s.total_return_percent, 1, true), formatReturn(s.money_weighted_return_percent), formatPercent(100), '', '', '', ''],
  });
}
