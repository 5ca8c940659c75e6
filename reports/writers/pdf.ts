/**
 * The portfolio report as a PDF for the client: cover, summary with key figures and vector
 * charts, performance against benchmarks, the holdings table (landscape, header repeated on
 * every page, total at the end), projections, exit analysis, errors, method and disclaimer.
 * Fonts are embedded from reports/fonts; pages say "Page n of N"; sections are in the outline.
 * Tagged PDF/UA-1 and PDF/A-3a (pdf-layout.ts, pdf-archive.ts), with the report's JSON and CSV
 * embedded (pdf-attachments.ts).
 */
import { createWriteStream } from 'node:fs';
import { segmentById } from '../../src/wire';
import type { Holding, ReportData } from '../report-data';
import { writeAtomically } from './atomic-write';
import { BENCHMARK_COLOURS, PALETTE, SERIES_COLOURS } from './palette';
import { reportAttachments, type WrittenSiblings } from './pdf-attachments';
import { barAlt, barChart, donutAlt, donutChart } from './pdf-charts';
import { A4, MARGIN, PdfPages, fitFontSize, fitText, hex } from './pdf-layout';
import { drawTable, type PdfCell, type PdfColumn, type PdfRow } from './pdf-table';
import { largestHoldings } from './largest-holdings';
import { formatAmountIn, formatCompactMoney, formatInteger, formatLongDate, formatMoney, formatPercent, formatRate, formatReturn, formatTimestamp } from './text-format';
import { figureSentences, netRealisable } from './figure-notes';
import { readable } from './labels';

const segmentName = (id: string) => segmentById(id)?.name ?? id;
const signedColour = (v: number | null) => (v === null ? PALETTE.muted : v < 0 ? PALETTE.negative : PALETTE.positive);

function drawCover(p: PdfPages, data: ReportData): void {
  const { doc } = p;
  const c = data.cover;
  p.addPage();
  doc.outline.addItem('Cover');
  const bandHeight = 330;
  p.artifact(() => {
    doc.rect(0, 0, A4.width, bandHeight).fill(hex(PALETTE.navy));
    doc.rect(0, bandHeight, A4.width, 4).fill(hex(PALETTE.gold));
  });
  const x = MARGIN.side + 12;
  const w = A4.width - 2 * x;
  p.tag('P', () => doc.font('sansBold').fontSize(9).fillColor(hex(PALETTE.gold)).text(c.audience === 'internal' ? 'INTERNAL FIRM REPORT — NOT FOR CLIENTS' : 'PRIVATE CLIENT REPORT', x, 96, { width: w, characterSpacing: 2.5 }));
  p.tag('H1', () => doc.font('serifBold').fontSize(28).fillColor('#FFFFFF').text(c.portfolio_name, x, 122, { width: w, lineGap: 2 }));
  doc.moveDown(0.4);
  p.tag('P', () => doc.font('serif').fontSize(13).fillColor('#E8E2D6').text(c.audience === 'internal' ? `Consolidated across ${c.portfolios.length} portfolios, for the firm's own use` : `Prepared for ${c.client_name}`, x, doc.y, { width: w }));
  p.tag('P', () => doc.font('sans').fontSize(10).fillColor('#C9C3B6').text('Valuation of collectible and luxury assets', x, bandHeight - 48, { width: w }));

  p.tag('P', () => doc.font('serif').fontSize(16).fillColor(hex(PALETTE.navy)).text(`Valued as of ${formatLongDate(c.as_of)}`, x, bandHeight + 44, { width: w }));
  let y = bandHeight + 84;
  const rows: [string, string][] = [
    ['Base currency', c.currency],
    ['Report reference', c.report_id],
    ['Generated', formatTimestamp(c.generated_at)],
  ];
  if (c.portfolio_id) rows.push(['Portfolio id', c.portfolio_id]);
  if (c.prepared_by) rows.push(['Prepared by', c.prepared_by]);
  // Label and value pairs: a two-column table whose labels head their rows.
  p.group('Table', () => {
    for (const [label, value] of rows) {
      const at = y;
      p.group('TR', () => {
        p.tag('TH', () => doc.font('sans').fontSize(9).fillColor(hex(PALETTE.muted)).text(label.toUpperCase(), x, at, { width: 130, characterSpacing: 0.6 }), { scope: 'Row' });
        p.tag('TD', () => doc.font('serif').fontSize(11).fillColor(hex(PALETTE.ink)).text(value, x + 140, at - 1.5, { width: w - 140 }));
      });
      y += 24;
    }
  });
  if (c.sandbox) {
    y += 16;
    const at = y;
    p.artifact(() => doc.rect(x, at, w, 46).lineWidth(1.2).strokeColor(hex(PALETTE.negative)).stroke());
    p.tag('P', () => {
      doc.font('sansBold').fontSize(11).fillColor(hex(PALETTE.negative)).text('SANDBOX DATA', x + 14, at + 9, { width: w - 28 });
      doc.font('sans').fontSize(9).text('These figures come from the test sandbox, not the live valuation service. Not for client use.', x + 14, at + 25, { width: w - 28 });
    });
  }
  p.tag('P', () => doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted)).text(c.audience === 'internal' ? 'Internal — for the firm only; not to be sent to any client. Values are estimates; see the disclaimer at the end of this report.' : 'Confidential — prepared for the named client only. Values are estimates; see the disclaimer at the end of this report.', x, A4.height - 110, { width: w }));
}

interface Figure {
  label: string;
  value: string;
  sub?: string;
  colour?: string;
}

function drawFigures(p: PdfPages, figures: Figure[], perRow = 3): void {
  const { doc } = p;
  const gap = 10;
  const w = (p.width - gap * (perRow - 1)) / perRow;
  const h = 62;
  for (let i = 0; i < figures.length; i += perRow) {
    p.ensureSpace(h + gap);
    const y = doc.y;
    const row = figures.slice(i, i + perRow);
    p.artifact(() => {
      row.forEach((_, k) => {
        const x = p.left + k * (w + gap);
        doc.rect(x, y, w, h).fill(hex(PALETTE.paper));
        doc.rect(x, y, w, 2).fill(hex(PALETTE.gold));
      });
    });
    // Each card reads as one paragraph: label, figure, note.
    row.forEach((f, k) => {
      const x = p.left + k * (w + gap);
      p.tag('P', () => {
        doc.font('sans').fontSize(7.5).fillColor(hex(PALETTE.muted)).text(f.label.toUpperCase(), x + 10, y + 10, { width: w - 20, characterSpacing: 0.6, lineBreak: false });
        doc.font('serifBold');
        const size = fitFontSize(doc, f.value, w - 20, 15, 9);
        doc.fontSize(size).fillColor(hex(f.colour ?? PALETTE.navy)).text(f.value, x + 10, y + 24 + (15 - size) / 2, { width: w - 20, lineBreak: false });
        if (f.sub) {
          doc.font('sans').fontSize(7.5).fillColor(hex(PALETTE.muted));
          doc.text(fitText(doc, f.sub, w - 20), x + 10, y + 45, { width: w - 20, lineBreak: false });
        }
      });
    });
    doc.y = y + h + gap;
  }
  doc.x = p.left;
}

function drawSummary(p: PdfPages, data: ReportData): void {
  const { doc } = p;
  const { summary: s, cover: c, concentration } = data;
  const cur = c.currency;
  p.addPage();
  p.section('Summary');
  const mom = s.month_on_month;
  drawFigures(p, [
    { label: 'Current value', value: formatMoney(s.current_value, cur), sub: `Range ${formatMoney(s.current_value_low, cur, 0)} – ${formatMoney(s.current_value_high, cur, 0)}` },
    { label: 'Total invested', value: formatMoney(s.total_invested, cur), sub: `${formatInteger(s.asset_count)} holdings in ${s.segment_count} segments` },
    { label: 'Gain since purchase', value: formatMoney(s.gain, cur), colour: signedColour(s.gain) },
    { label: 'Return since purchase', value: formatPercent(s.total_return_percent, 1, true), colour: signedColour(s.total_return_percent) },
    { label: 'Return a year (IRR)', value: formatReturn(s.money_weighted_return_percent), colour: signedColour(s.money_weighted_return_percent), sub: s.money_weighted_return_percent === null ? 'not available yet' : 'money-weighted, since purchase' },
    // The one monthly figure of the headline; without an earlier report the cost-weighted rate takes its place.
    mom
      ? { label: 'Change since last report', value: formatMoney(mom.change, cur, 0), colour: signedColour(mom.change), sub: `${formatPercent(mom.change_percent, 1, true)} since ${formatLongDate(mom.previous_as_of)}` }
      : { label: 'Annualised return', value: formatReturn(s.annualised_return_percent), colour: signedColour(s.annualised_return_percent), sub: s.annualised_return_percent === null ? 'not available' : 'cost-weighted holding period' },
  ]);

  p.subheading('Allocation by segment');
  if (data.allocation.length === 0) {
    // Nothing valued: a sentence, not an empty chart drawn over the heading.
    p.paragraph('No holding could be valued for this report, so there is no allocation to show; the rows not valued are listed at the end.', { colour: PALETTE.muted });
    return;
  }
  p.ensureSpace(150);
  const slices = data.allocation.map((a, i) => ({ label: a.segment_name, value: a.value, colour: SERIES_COLOURS[i % SERIES_COLOURS.length]! }));
  const y = doc.y;
  const centre = { label: 'Total value', value: formatCompactMoney(s.current_value, cur) };
  const used = p.figure(donutAlt('Allocation of the portfolio value by segment', slices, centre), { x: p.left + 4, y, width: 352, height: 130 }, () =>
    donutChart(doc, p.left + 4, y, 130, slices, centre, 190),
  );
  // Concentration beside the legend.
  const cx = p.left + 362;
  const cw = p.right - cx;
  p.tag('H3', () => doc.font('sansBold').fontSize(8).fillColor(hex(PALETTE.navy)).text('CONCENTRATION', cx, y + 4, { width: cw, characterSpacing: 0.6 }));
  doc.font('sans').fontSize(8).fillColor(hex(PALETTE.ink));
  const lp = concentration.largest_position;
  const points = [
    { text: `Top-10 share: ${formatPercent(concentration.top10_share_percent)}`, colour: PALETTE.ink, gap: 4 },
    ...(lp ? [{ text: `Largest position: ${formatPercent(lp.weight_percent)} — ${lp.description}`, colour: PALETTE.ink, gap: 3 }] : []),
    ...concentration.flags.map((f) => ({ text: `▲ ${f.message}`, colour: PALETTE.warning, gap: 3 })),
  ];
  p.list(points, (pt) => doc.font('sans').fontSize(8).fillColor(hex(pt.colour)).text(pt.text, cx, doc.y + pt.gap, { width: cw }));
  doc.y = Math.max(y + used, doc.y) + 14;
  doc.x = p.left;

  drawTable(
    p,
    [
      { label: 'Segment', width: 200 },
      { label: 'Holdings', width: 70, align: 'right' },
      { label: 'Value', width: 130, align: 'right' },
      { label: 'Share', width: p.width - 400, align: 'right' },
    ],
    data.allocation.map((a) => [a.segment_name, formatInteger(a.asset_count), formatMoney(a.value, cur, 0), formatPercent(a.percentage)]),
    { totalRow: ['Total', formatInteger(s.asset_count), formatMoney(s.current_value, cur, 0), formatPercent(100)] },
  );
}

/** What each headline figure measures, one plain sentence each, after the summary's tables. */
function drawFigureNotes(p: PdfPages, data: ReportData): void {
  const { summary: s, cover: c } = data;
  const cur = c.currency;
  const mom = s.month_on_month;
  p.ensureSpace(120);
  p.subheading('What these figures mean');
  const why = figureSentences(data);
  const nrv = netRealisable(data);
  const explained: [string, string][] = [
    ...(mom ? ([[`Change since last report: ${formatMoney(mom.change, cur, 0)}.`, why.change]] as [string, string][]) : []),
    [`Return a year (IRR): ${formatReturn(s.money_weighted_return_percent)}.`, why.mwr],
    [`Time-weighted return${s.twr_from ? ` since ${formatLongDate(s.twr_from)}` : ''}: ${formatReturn(s.time_weighted_return_percent)}.`, why.twr],
    [`Exchange-rate effect: ${formatMoney(s.fx_effect, cur, 0)}; asset effect: ${formatMoney(s.asset_effect, cur, 0)}.`, `${why.fx} ${why.asset}`],
    [`Net realisable value: ${formatMoney(nrv?.value ?? null, cur, 0)}.`, why.nrv],
    [`Coverage: ${formatPercent(s.coverage.valued_percent)} valued.`, why.coverage],
  ];
  for (const [figure, sentence] of explained) p.paragraph(`${figure} ${sentence}`, { size: 8, colour: PALETTE.muted });
}

function drawPerformance(p: PdfPages, data: ReportData): void {
  // Keep the heading with its chart.
  p.ensureSpace(data.benchmarks.included ? 300 : 120);
  p.section('Performance against benchmarks');
  const section = data.benchmarks;
  if (!section.included) {
    p.note(section.note);
    return;
  }
  const perf = section.data;
  const { doc } = p;
  p.ensureSpace(190);
  p.tag('P', () => doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted)).text('One-year return: the portfolio against the luxury index, gold and equities.', p.left, doc.y, { width: p.width }));
  doc.moveDown(0.6);
  const bars = [
    { label: 'Portfolio', value: perf.portfolio_one_year_return_percent, colour: BENCHMARK_COLOURS[0] },
    ...perf.benchmarks.map((b, i) => ({ label: b.name, value: b.one_year_return_percent, colour: BENCHMARK_COLOURS[(i + 1) % BENCHMARK_COLOURS.length]! })),
  ];
  const y = doc.y;
  p.figure(barAlt('One-year return of the portfolio against its benchmarks', bars), { x: p.left, y, width: p.width, height: 160 }, () => barChart(doc, p.left + 40, y, p.width - 60, 160, bars));
  doc.y = y + 172;
  doc.x = p.left;
  drawTable(
    p,
    [
      { label: 'Period', width: 200 },
      { label: "Today's holdings", width: 150, align: 'right' },
      { label: `Against the ${perf.benchmark_name.toLowerCase()}`, width: p.width - 350, align: 'right' },
    ],
    perf.periods.map((r) => [
      r.label,
      { text: formatPercent(r.return_percent, 1, true), colour: signedColour(r.return_percent) },
      { text: r.vs_benchmark_percent === null ? '–' : `${formatPercent(r.vs_benchmark_percent, 1, true).replace(' %', ' pts')}`, colour: signedColour(r.vs_benchmark_percent) },
    ]),
  );
  p.paragraph(
    `Period returns are the service's market measure of the holdings held today over each period, and the last column their lead over the ${perf.benchmark_name.toLowerCase()} in percentage points. ` +
      'They differ from the value change since the last report in the summary, which compares the two reports\' values, new purchases included.',
    { colour: PALETTE.muted, size: 8 },
  );
  if (section.note) p.paragraph(section.note, { colour: PALETTE.muted, size: 8 });
}

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

function* holdingRows(holdings: Iterable<Holding>, cur: string, internal = false): Iterable<PdfRow> {
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
      { text: formatReturn(h.money_weighted_return_percent), colour: signedColour(h.money_weighted_return_percent) },
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

function drawHoldings(p: PdfPages, data: ReportData): void {
  const cur = data.cover.currency;
  const s = data.summary;
  p.addPage('landscape');
  p.section('Holdings');
  p.paragraph(
    `Values are mid estimates in ${cur}, with the low–high range beneath. Cost is what was paid, in ${cur} at the exchange rate of the purchase date, ` +
      `with the price in the currency it was paid in beneath when that was another; FX rate is ${cur} per unit of that currency on the purchase date, ` +
      'with today\'s rate beneath. Return is since purchase; IRR is the holding\'s money-weighted return a year; Month is the change since the previous report. ' +
      '"Valid." shows whether the valuation is market validated.',
    { size: 8, colour: PALETTE.muted },
  );
  const internal = data.cover.audience === 'internal';
  let rows: Iterable<PdfRow> = holdingRows(data.holdings, cur, internal);
  if (s.asset_count > PDF_MAX_HOLDINGS) {
    const { top, restCount, restValue, restCost } = largestHoldings(data.holdings, PDF_MAX_HOLDINGS);
    p.note(
      `This portfolio holds ${formatInteger(s.asset_count)} assets: the ${formatInteger(top.length)} largest by value are listed here, largest first, ` +
        `and the other ${formatInteger(restCount)} (${formatPercent(s.current_value > 0 ? (restValue / s.current_value) * 100 : 0)} of the value) on one line. ` +
        'The complete list is in the spreadsheet, CSV and JSON files of this report.',
    );
    const rest: PdfRow = ['', { text: `Other holdings (${formatInteger(restCount)})`, bold: true }, '', '', '', formatMoney(restCost, cur, 0), '', formatMoney(restValue, cur, 0), '', '', formatPercent(s.current_value > 0 ? (restValue / s.current_value) * 100 : 0), '', '', '', ''];
    rows = (function* () {
      yield* holdingRows(top, cur, internal);
      yield rest;
    })();
  }
  drawTable(p, holdingsColumns(internal), rows, {
    fontSize: 7.5,
    totalRow: ['', 'Total', '', '', '', formatMoney(s.total_invested, cur, 0), '', formatMoney(s.current_value, cur, 0), formatPercent(s.total_return_percent, 1, true), formatReturn(s.money_weighted_return_percent), formatPercent(100), '', '', '', ''],
  });
}

function drawEnrichment(p: PdfPages, data: ReportData): void {
  const cur = data.cover.currency;
  p.addPage();
  p.section('Projections for the largest holdings');
  if (!data.projections.included) p.note(data.projections.note);
  else {
    drawTable(
      p,
      [
        { label: data.cover.audience === 'internal' ? 'Holding (portfolio)' : 'Holding', width: 170 },
        { label: 'Value now', width: 66, align: 'right' },
        { label: 'ROI 12m', width: 46, align: 'right' },
        { label: 'ROI 24m', width: 46, align: 'right' },
        { label: 'ROI 36m', width: 46, align: 'right' },
        { label: '36-month range', width: 95, align: 'right' },
        { label: 'Conf.', width: p.width - 469, align: 'right' },
      ],
      data.projections.data.map((r) => [
        { text: r.description, sub: data.cover.audience === 'internal' ? `${r.portfolio} · ${r.asset_id}` : r.asset_id },
        formatMoney(r.current_value, cur, 0),
        formatPercent(r.expected_roi_12m_percent, 1, true),
        formatPercent(r.expected_roi_24m_percent, 1, true),
        formatPercent(r.expected_roi_36m_percent, 1, true),
        { text: formatMoney(r.central_value_36m, cur, 0), sub: `${formatCompactMoney(r.conservative_value_36m, cur)}–${formatCompactMoney(r.optimistic_value_36m, cur)}` },
        r.confidence.toFixed(2),
      ]),
    );
    p.paragraph('Expected return is the probability-weighted average of the conservative, central and optimistic scenarios.', { size: 8, colour: PALETTE.muted });
    if (data.projections.note) p.paragraph(data.projections.note, { size: 8, colour: PALETTE.muted });
  }
  p.section('Exit analysis');
  if (!data.exit_analysis.included) p.note(data.exit_analysis.note);
  else {
    drawTable(
      p,
      [
        { label: data.cover.audience === 'internal' ? 'Holding (portfolio)' : 'Holding', width: 150 },
        { label: 'Timing', width: 82 },
        { label: 'Best channel', width: 110 },
        { label: 'Net proceeds', width: 70, align: 'right' },
        { label: 'Days', width: 40, align: 'right' },
        { label: 'Hold 12m', width: p.width - 452, align: 'right' },
      ],
      data.exit_analysis.data.map((e) => [
        { text: e.description, sub: data.cover.audience === 'internal' ? `${e.portfolio} · ${e.asset_id}` : e.asset_id },
        { text: readable(e.recommendation), sub: `${readable(e.signal)}; window ${readable(e.optimal_window).toLowerCase()}` },
        { text: e.primary_channel, sub: `commission ${formatPercent(e.primary_commission_percent)}` },
        { text: formatMoney(e.primary_estimated_net, cur, 0), sub: `alt. ${formatMoney(e.secondary_estimated_net, cur, 0)}` },
        e.primary_timeline_days,
        formatPercent(e.hold_12m_roi_percent, 1, true),
      ]),
    );
    if (data.exit_analysis.note) p.paragraph(data.exit_analysis.note, { size: 8, colour: PALETTE.muted });
  }
}

/** The PDF lists at most this many errors and counts the rest (the xlsx and JSON have them all). */
export const PDF_MAX_ERRORS = 200;

function drawErrorsAndNotes(p: PdfPages, data: ReportData): void {
  p.section('Rows not valued');
  if (data.errors.length === 0) p.paragraph('None: every input row was valued.', { colour: PALETTE.muted });
  else {
    // The first PDF_MAX_ERRORS, then a count: 100,000 bad rows must not make a 100,000-line PDF.
    const internal = data.cover.audience === 'internal';
    const shown = data.errors.slice(0, PDF_MAX_ERRORS);
    drawTable(
      p,
      [
        ...(internal ? [{ label: 'Portfolio', width: 90 }] : []),
        { label: 'Row', width: 36, align: 'right' },
        { label: 'Field', width: 90 },
        { label: 'Problem', width: p.width - 126 - (internal ? 90 : 0) },
      ],
      shown.map((e) => [...(internal ? [e.portfolio] : []), e.row === null ? '–' : String(e.row), e.field || '–', e.message]),
    );
    const rest = data.errors.length - shown.length;
    if (rest > 0) p.note(`…and ${formatInteger(rest)} more row${rest === 1 ? '' : 's'} not valued (${formatInteger(data.errors.length)} in all): the complete list is in the spreadsheet and JSON files of this report.`);
  }
  p.section('Method');
  for (const note of data.method_notes) p.paragraph(note);
  p.section('Disclaimer');
  p.paragraph(data.disclaimer, { size: 8.5 });
}

/** The language of the report's text (English, British spelling); a translated report passes its own. */
export const REPORT_LANG = 'en-GB';

/** `plain`: the benchmark's baseline (see DocumentOptions); `siblings`: this run's JSON and CSV, embedded as written. */
export async function writePdf(data: ReportData, filePath: string, options: { plain?: boolean; siblings?: WrittenSiblings } = {}): Promise<void> {
  const c = data.cover;
  const pages = new PdfPages(
    c.audience === 'internal'
      ? { title: `Internal consolidated report — ${c.portfolios.length} portfolios`, subtitle: `Valued as of ${formatLongDate(c.as_of)} · ${c.currency}`, reference: `${c.report_id} · INTERNAL, not for clients`, sandbox: c.sandbox }
      : { title: c.client_name === c.portfolio_name ? c.portfolio_name : `${c.portfolio_name} — ${c.client_name}`, subtitle: `Valued as of ${formatLongDate(c.as_of)} · ${c.currency}`, reference: c.report_id, sandbox: c.sandbox },
    c.audience === 'internal'
      ? { Title: `Internal consolidated report ${c.as_of}`, Author: c.prepared_by, Subject: `Consolidated valuation of ${c.portfolios.length} portfolios, for the firm only` }
      : { Title: `${c.portfolio_name} — portfolio report ${c.as_of}`, Author: c.prepared_by, Subject: `Valuation report for ${c.client_name}` },
    { lang: REPORT_LANG, created: new Date(c.generated_at), plain: options.plain },
  );
  if (!options.plain) for (const file of await reportAttachments(data, filePath, options.siblings)) pages.attach(file);
  drawCover(pages, data);
  drawSummary(pages, data);
  drawFigureNotes(pages, data);
  drawPerformance(pages, data);
  drawHoldings(pages, data);
  drawEnrichment(pages, data);
  drawErrorsAndNotes(pages, data);
  await writeAtomically(filePath, (tempPath) => pages.finish(createWriteStream(tempPath)));
}
