/**
 * The PDF's market measure section: the valuation service's measure of the holdings held today,
 * one-year bars against the benchmarks and the period returns table. It is the market's, not
 * the portfolio's own return (that is "Portfolio performance", pdf-history.ts), and says so.
 */
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import { barAlt, barChart } from './pdf-charts';
import { type PdfPages, hex } from './pdf-layout';
import { signedColour } from './pdf-signed-colour';
import { drawTable } from './pdf-table';
import { reportTranslator } from './report-language';
import { BENCHMARK_KEYS, MARKET_PERIOD_KEYS, benchmarkInSentence, points } from './performance-words';

export function drawPerformance(p: PdfPages, data: ReportData): void {
  const tr = reportTranslator(data);
  // Keep the heading with its chart; the title says whose measure it is: the service's, of today's holdings (issue 23).
  p.ensureSpace(data.benchmarks.included ? 300 : 120);
  p.section(tr.t('pdf.market_title'));
  const section = data.benchmarks;
  if (!section.included) {
    p.note(section.note);
    return;
  }
  const perf = section.data;
  const { doc } = p;
  // The benchmark the service measures the lead against, by its id where the report names one of ours.
  const benchmark = benchmarkInSentence(perf, tr);
  p.ensureSpace(230);
  p.paragraph(data.history ? tr.t('pdf.market_intro_history', { title: tr.t('pdf.portfolio_performance') }) : tr.t('pdf.market_intro'), { size: 8.5 });
  p.tag('P', () => doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted)).text(tr.t('pdf.market_chart_caption'), p.left, doc.y, { width: p.width }));
  doc.moveDown(0.6);
  const bars = [
    { label: tr.t('pdf.todays_holdings'), value: perf.portfolio_one_year_return_percent, colour: p.theme.benchmarks[0]! },
    ...perf.benchmarks.map((b, i) => ({ label: BENCHMARK_KEYS[b.id] ? tr.t(BENCHMARK_KEYS[b.id]) : b.name, value: b.one_year_return_percent, colour: p.theme.benchmarks[(i + 1) % p.theme.benchmarks.length]! })),
  ];
  const y = doc.y;
  p.figure(barAlt(tr.t('pdf.market_chart_alt'), bars, tr), { x: p.left, y, width: p.width, height: 160 }, () => barChart(doc, p.left + 40, y, p.width - 60, 160, bars, tr, p));
  doc.y = y + 172;
  doc.x = p.left;
  drawTable(
    p,
    [
      { label: tr.t('pdf.col_period'), width: 200 },
      { label: tr.t('pdf.todays_holdings'), width: 150, align: 'right' },
      { label: tr.t('pdf.col_against', { benchmark }), width: p.width - 350, align: 'right' },
    ],
    perf.periods.map((r) => [
      MARKET_PERIOD_KEYS[r.period] ? tr.t(MARKET_PERIOD_KEYS[r.period]) : r.label,
      { text: tr.percent(r.return_percent, { signed: true }), colour: signedColour(r.return_percent) },
      { text: r.vs_benchmark_percent === null ? '–' : points(r.vs_benchmark_percent, tr), colour: signedColour(r.vs_benchmark_percent) },
    ]),
  );
  p.paragraph(tr.t('pdf.market_periods_note', { benchmark }), { colour: PALETTE.muted, size: 8 });
  if (section.note) p.paragraph(section.note, { colour: PALETTE.muted, size: 8 });
}
