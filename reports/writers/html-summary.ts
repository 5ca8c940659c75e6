/**
 * The page's summary (pdf-summary.ts): the headline figures as cards, the market-validated share,
 * the allocation by segment and the concentration, and what each figure measures. The same
 * fields and translator as the PDF; the sentences come from figure-notes.ts as the PDF's do.
 */
import type { Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import { annualisedMissing, figureSentences, netRealisable, timeWeightedLabel, validatedShare } from './figure-notes';
import { html, type SafeHtml } from './html-escape';
import { htmlTable, signClass } from './html-table';
import { moneyWeightedLabel, portfolioPeriod } from './return-period';

interface Card {
  label: string;
  value: string;
  sign?: number | null;
  sub?: string;
}

const cardHtml = (c: Card) =>
  html`<div class="card"><p class="label">${c.label}</p><p class="value ${signClass(c.sign)}">${c.value}</p>${c.sub ? html`<p class="sub">${c.sub}</p>` : ''}</div>`;

export function summaryCards(data: ReportData, tr: Translator): SafeHtml {
  const { summary: s, cover: c } = data;
  const cur = c.currency;
  const mom = s.month_on_month;
  const held = portfolioPeriod(s);
  const since = s.returns_since;
  const cards: Card[] = [
    { label: tr.t('pdf.card_current_value'), value: tr.money(s.current_value, cur), sub: tr.t('pdf.card_range', { low: tr.money(s.current_value_low, cur, 0), high: tr.money(s.current_value_high, cur, 0) }) },
    { label: tr.t('pdf.card_total_invested'), value: tr.money(s.total_invested, cur), sub: tr.t('pdf.card_invested_sub', { holdings: s.asset_count, segments: s.segment_count }) },
    { label: tr.t('pdf.card_gain'), value: tr.money(s.gain, cur), sign: s.gain },
    { label: tr.t('pdf.card_return'), value: tr.percent(s.total_return_percent, { signed: true }), sign: s.total_return_percent },
    {
      label: moneyWeightedLabel(held, tr),
      value: tr.returnPercent(s.money_weighted_return_percent),
      sign: s.money_weighted_return_percent,
      sub: s.money_weighted_return_percent === null || !since ? tr.t('pdf.card_mwr_unavailable') : held.annualised ? tr.t('pdf.card_mwr_since', { date: tr.date(since.from) }) : tr.t('pdf.card_mwr_short', { days: held.days }),
    },
    mom
      ? { label: tr.t('pdf.card_change'), value: tr.money(mom.change, cur, 0), sign: mom.change, sub: tr.t('pdf.card_change_sub', { percent: tr.percent(mom.change_percent, { signed: true }), date: tr.date(mom.previous_as_of) }) }
      : { label: tr.t('pdf.card_annualised'), value: tr.returnPercent(s.annualised_return_percent), sign: s.annualised_return_percent, sub: s.annualised_return_percent !== null ? tr.t('pdf.card_annualised_sub') : annualisedMissing(s, tr) },
  ];
  return html`<div class="cards-grid">${cards.map(cardHtml)}</div>
${s.asset_count > 0 ? html`<p class="muted">${validatedShare(s, tr)}</p>` : ''}
${s.validation_warning ? html`<p class="note">${s.validation_warning}</p>` : ''}`;
}

/** The allocation table and the concentration points; the chart is html-charts.ts's. */
export function allocationHtml(data: ReportData, tr: Translator, chart: SafeHtml | ''): SafeHtml {
  const { summary: s, cover: c, concentration } = data;
  const cur = c.currency;
  if (data.allocation.length === 0) return html`<h3>${tr.t('pdf.allocation')}</h3><p class="muted">${tr.t('pdf.allocation_none')}</p>`;
  const lp = concentration.largest_position;
  return html`<h3>${tr.t('pdf.allocation')}</h3>
${chart}
<h3>${tr.t('pdf.concentration')}</h3>
<ul>
<li>${tr.t('pdf.top10_share', { share: tr.percent(concentration.top10_share_percent) })}</li>
${lp ? html`<li>${tr.t('pdf.largest_position', { share: tr.percent(lp.weight_percent), description: lp.description })}</li>` : ''}
${concentration.flags.map((f) => html`<li class="note">${f.message}</li>`)}
</ul>
${htmlTable({
  caption: tr.t('pdf.allocation'),
  columns: [{ label: tr.t('common.segment') }, { label: tr.t('common.holdings'), numeric: true }, { label: tr.t('pdf.col_value'), numeric: true }, { label: tr.t('pdf.col_share'), numeric: true }],
  rows: data.allocation.map((a) => [a.segment_name, { text: tr.number(a.asset_count), value: a.asset_count }, { text: tr.money(a.value, cur, 0), value: a.value }, { text: tr.percent(a.percentage), value: a.percentage }]),
  total: [tr.t('pdf.total'), tr.number(s.asset_count), tr.money(s.current_value, cur, 0), tr.percent(100)],
})}`;
}

/** What each headline figure measures, one plain sentence each (the PDF's drawFigureNotes). */
export function figureNotesHtml(data: ReportData, tr: Translator): SafeHtml {
  const { summary: s, cover: c } = data;
  const money = (v: number | null) => tr.money(v, c.currency, 0);
  const why = figureSentences(data, tr);
  const nrv = netRealisable(data);
  const explained: [string, string][] = [
    [tr.t('pdf.figure_change', { amount: money(s.month_on_month?.change ?? null) }), why.change],
    [tr.t('pdf.figure_value', { label: moneyWeightedLabel(portfolioPeriod(s), tr), value: tr.returnPercent(s.money_weighted_return_percent) }), why.mwr],
    [tr.t('pdf.figure_value', { label: timeWeightedLabel(s, tr), value: tr.returnPercent(s.time_weighted_return_percent) }), why.twr],
    [tr.t('pdf.figure_effects', { fx: money(s.fx_effect), asset: money(s.asset_effect) }), tr.t('pdf.two_sentences', { first: why.fx, second: why.asset })],
    [tr.t('pdf.figure_nrv', { value: money(nrv?.value ?? null) }), why.nrv],
    [tr.t('pdf.figure_coverage', { percent: tr.percent(s.coverage.valued_percent) }), why.coverage],
  ];
  return html`<h3>${tr.t('pdf.figures_heading')}</h3>
${explained.map(([first, second]) => html`<p class="muted">${tr.t('pdf.two_sentences', { first, second })}</p>`)}`;
}
