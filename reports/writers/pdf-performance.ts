/**
 * The PDF's market measure section: the valuation service's measure of the holdings held today,
 * one-year bars against the benchmarks and the period returns table. It is the market's, not
 * the portfolio's own return (that is "Portfolio performance", pdf-history.ts), and says so.
 */
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import { barAlt, barChart } from './pdf-charts';
import { PORTFOLIO_PERFORMANCE_TITLE } from './pdf-history';
import { type PdfPages, hex } from './pdf-layout';
import { signedColour } from './pdf-signed-colour';
import { drawTable } from './pdf-table';
import { formatPercent } from './text-format';

/** Says whose measure it is: the service's, of today's holdings (issue 23). */
export const MARKET_MEASURE_TITLE = "Market measure (the valuation service's)";

export function drawPerformance(p: PdfPages, data: ReportData): void {
  // Keep the heading with its chart.
  p.ensureSpace(data.benchmarks.included ? 300 : 120);
  p.section(MARKET_MEASURE_TITLE);
  const section = data.benchmarks;
  if (!section.included) {
    p.note(section.note);
    return;
  }
  const perf = section.data;
  const { doc } = p;
  p.ensureSpace(230);
  p.paragraph(
    "The valuation service's market measure of the holdings held today: how the market priced these assets over each period, not what the portfolio itself earned" +
      (data.history ? ` (that is under ${PORTFOLIO_PERFORMANCE_TITLE}, above).` : ', which takes the firm\'s records of its transactions and month-end values.'),
    { size: 8.5 },
  );
  p.tag('P', () => doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted)).text("One-year market measure: today's holdings against the luxury index, gold and equities.", p.left, doc.y, { width: p.width }));
  doc.moveDown(0.6);
  const bars = [
    { label: "Today's holdings", value: perf.portfolio_one_year_return_percent, colour: p.theme.benchmarks[0]! },
    ...perf.benchmarks.map((b, i) => ({ label: b.name, value: b.one_year_return_percent, colour: p.theme.benchmarks[(i + 1) % p.theme.benchmarks.length]! })),
  ];
  const y = doc.y;
  p.figure(barAlt("One-year market measure of today's holdings against the benchmarks", bars), { x: p.left, y, width: p.width, height: 160 }, () => barChart(doc, p.left + 40, y, p.width - 60, 160, bars));
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
