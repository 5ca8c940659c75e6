/**
 * The market measure on the page (pdf-performance.ts): the service's one-year return of the
 * holdings held today against the benchmarks (bars), and its period returns with the lead over
 * the benchmark, or the note saying why the section is left out.
 */
import type { Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import type { Theme } from './brand-theme';
import { barAlt } from './chart-words';
import { barFigure } from './html-charts';
import { html, type SafeHtml } from './html-escape';
import { htmlTable } from './html-table';
import { BENCHMARK_KEYS, MARKET_PERIOD_KEYS, benchmarkInSentence, points } from './performance-words';

export function marketPerformanceHtml(data: ReportData, tr: Translator, theme: Theme): SafeHtml {
  const section = data.benchmarks;
  if (!section.included) return html`<p class="note">${section.note}</p>`;
  const perf = section.data;
  const benchmark = benchmarkInSentence(perf, tr);
  const bars = [
    { label: tr.t('pdf.todays_holdings'), value: perf.portfolio_one_year_return_percent, colour: theme.benchmarks[0]! },
    ...perf.benchmarks.map((b, i) => ({ label: BENCHMARK_KEYS[b.id] ? tr.t(BENCHMARK_KEYS[b.id]) : b.name, value: b.one_year_return_percent, colour: theme.benchmarks[(i + 1) % theme.benchmarks.length]! })),
  ];
  const signed = (v: number | null) => (v === null ? tr.t('pdf.not_available') : tr.percent(v, { signed: true }));
  const title = tr.t('pdf.market_chart_caption');
  return html`<p>${data.history ? tr.t('pdf.market_intro_history', { title: tr.t('pdf.portfolio_performance') }) : tr.t('pdf.market_intro')}</p>
${barFigure({ id: 'market-chart', title, caption: barAlt(tr.t('pdf.market_chart_alt'), bars, tr), bars, format: signed, columns: [tr.t('html.col_series'), tr.t('common.period_1y')], tr })}
${htmlTable({
  caption: tr.t('pdf.market_title'),
  columns: [{ label: tr.t('pdf.col_period') }, { label: tr.t('pdf.todays_holdings'), numeric: true }, { label: tr.t('pdf.col_against', { benchmark }), numeric: true }],
  rows: perf.periods.map((r) => [
    MARKET_PERIOD_KEYS[r.period] ? tr.t(MARKET_PERIOD_KEYS[r.period]) : r.label,
    { text: tr.percent(r.return_percent, { signed: true }), value: r.return_percent, sign: r.return_percent },
    { text: r.vs_benchmark_percent === null ? '–' : points(r.vs_benchmark_percent, tr), value: r.vs_benchmark_percent, sign: r.vs_benchmark_percent },
  ]),
})}
<p class="muted">${tr.t('pdf.market_periods_note', { benchmark })}</p>
${section.note ? html`<p class="muted">${section.note}</p>` : ''}`;
}
