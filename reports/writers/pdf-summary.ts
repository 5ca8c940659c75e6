/** The PDF's summary section: key figures, allocation donut with concentration, segment table, and what the figures mean. */
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import { donutAlt, donutChart } from './pdf-charts';
import { drawFigures } from './pdf-figure-cards';
import { type PdfPages, hex } from './pdf-layout';
import { signedColour } from './pdf-signed-colour';
import { drawTable } from './pdf-table';
import { annualisedMissing, figureSentences, netRealisable, timeWeightedLabel, validatedShare } from './figure-notes';
import { reportTranslator } from './report-language';
import { moneyWeightedLabel, portfolioPeriod } from './return-period';

export function drawSummary(p: PdfPages, data: ReportData): void {
  const { doc } = p;
  const { summary: s, cover: c, concentration } = data;
  const tr = reportTranslator(data);
  const cur = c.currency;
  const pct = (v: number | null, signed = false) => tr.percent(v, { signed });
  p.addPage();
  p.section(tr.t('pdf.summary'));
  const mom = s.month_on_month;
  const held = portfolioPeriod(s);
  const since = s.returns_since;
  drawFigures(p, [
    { label: tr.t('pdf.card_current_value'), value: tr.money(s.current_value, cur), sub: tr.t('pdf.card_range', { low: tr.money(s.current_value_low, cur, 0), high: tr.money(s.current_value_high, cur, 0) }) },
    { label: tr.t('pdf.card_total_invested'), value: tr.money(s.total_invested, cur), sub: tr.t('pdf.card_invested_sub', { holdings: s.asset_count, segments: s.segment_count }) },
    { label: tr.t('pdf.card_gain'), value: tr.money(s.gain, cur), colour: signedColour(s.gain) },
    { label: tr.t('pdf.card_return'), value: pct(s.total_return_percent, true), colour: signedColour(s.total_return_percent) },
    {
      label: moneyWeightedLabel(held, tr),
      value: tr.returnPercent(s.money_weighted_return_percent),
      colour: signedColour(s.money_weighted_return_percent),
      // The since-inception figure of the performance page, with its start: the two pages say one thing.
      sub: s.money_weighted_return_percent === null || !since ? tr.t('pdf.card_mwr_unavailable') : held.annualised ? tr.t('pdf.card_mwr_since', { date: tr.date(since.from) }) : tr.t('pdf.card_mwr_short', { days: held.days }),
    },
    // The one monthly figure of the headline; without an earlier month-end the yearly return since purchase takes its place.
    mom
      ? { label: tr.t('pdf.card_change'), value: tr.money(mom.change, cur, 0), colour: signedColour(mom.change), sub: tr.t('pdf.card_change_sub', { percent: pct(mom.change_percent, true), date: tr.date(mom.previous_as_of) }) }
      : { label: tr.t('pdf.card_annualised'), value: tr.returnPercent(s.annualised_return_percent), colour: signedColour(s.annualised_return_percent), sub: s.annualised_return_percent !== null ? tr.t('pdf.card_annualised_sub') : annualisedMissing(s, tr) },
  ]);
  // On the page every client reads: how much of the value the market confirms, and where the rest is when too little is.
  if (s.asset_count > 0) p.paragraph(validatedShare(s, tr), { size: 8.5, colour: PALETTE.muted });
  if (s.validation_warning) p.note(s.validation_warning);

  p.subheading(tr.t('pdf.allocation'));
  if (data.allocation.length === 0) {
    // Nothing valued: a sentence, not an empty chart drawn over the heading.
    p.paragraph(tr.t('pdf.allocation_none'), { colour: PALETTE.muted });
    return;
  }
  p.ensureSpace(150);
  const slices = data.allocation.map((a, i) => ({ label: a.segment_name, value: a.value, colour: p.theme.series[i % p.theme.series.length]! }));
  const y = doc.y;
  const centre = { label: tr.t('pdf.total_value'), value: tr.compactMoney(s.current_value, cur), colour: p.theme.primary };
  const used = p.figure(donutAlt(tr.t('pdf.allocation_alt'), slices, centre, tr), { x: p.left + 4, y, width: 352, height: 130 }, () =>
    donutChart(doc, p.left + 4, y, 130, slices, centre, 190, tr, p),
  );
  // Concentration beside the legend.
  const cx = p.left + 362;
  const cw = p.right - cx;
  p.tag('H3', () => doc.font('sansBold').fontSize(8).fillColor(hex(p.theme.primary)).text(tr.t('pdf.concentration').toLocaleUpperCase(tr.lang), p.x(cx, cw), y + 4, { width: cw, characterSpacing: 0.6, align: p.align() }));
  doc.font('sans').fontSize(8).fillColor(hex(PALETTE.ink));
  const lp = concentration.largest_position;
  const points = [
    { text: tr.t('pdf.top10_share', { share: pct(concentration.top10_share_percent) }), colour: PALETTE.ink, gap: 4 },
    ...(lp ? [{ text: tr.t('pdf.largest_position', { share: pct(lp.weight_percent), description: lp.description }), colour: PALETTE.ink, gap: 3 }] : []),
    ...concentration.flags.map((f) => ({ text: `▲ ${f.message}`, colour: PALETTE.warning, gap: 3 })),
  ];
  p.list(points, (pt) => doc.font('sans').fontSize(8).fillColor(hex(pt.colour)).text(pt.text, p.x(cx, cw), doc.y + pt.gap, { width: cw, align: p.align() }));
  doc.y = Math.max(y + used, doc.y) + 14;
  doc.x = p.left;

  drawTable(
    p,
    [
      { label: tr.t('common.segment'), width: 200 },
      { label: tr.t('common.holdings'), width: 70, align: 'right' },
      { label: tr.t('pdf.col_value'), width: 130, align: 'right' },
      { label: tr.t('pdf.col_share'), width: p.width - 400, align: 'right' },
    ],
    data.allocation.map((a) => [a.segment_name, tr.number(a.asset_count), tr.money(a.value, cur, 0), pct(a.percentage)]),
    { totalRow: [tr.t('pdf.total'), tr.number(s.asset_count), tr.money(s.current_value, cur, 0), pct(100)] },
  );
}

/** What each headline figure measures, one plain sentence each, after the summary's tables. */
export function drawFigureNotes(p: PdfPages, data: ReportData): void {
  const { summary: s, cover: c } = data;
  const tr = reportTranslator(data);
  const cur = c.currency;
  const mom = s.month_on_month;
  const money = (v: number | null) => tr.money(v, cur, 0);
  p.ensureSpace(120);
  p.subheading(tr.t('pdf.figures_heading'));
  const why = figureSentences(data, tr);
  const nrv = netRealisable(data);
  const explained: [string, string][] = [
    [tr.t('pdf.figure_change', { amount: money(mom?.change ?? null) }), why.change],
    [tr.t('pdf.figure_value', { label: moneyWeightedLabel(portfolioPeriod(s), tr), value: tr.returnPercent(s.money_weighted_return_percent) }), why.mwr],
    [tr.t('pdf.figure_value', { label: timeWeightedLabel(s, tr), value: tr.returnPercent(s.time_weighted_return_percent) }), why.twr],
    [tr.t('pdf.figure_effects', { fx: money(s.fx_effect), asset: money(s.asset_effect) }), tr.t('pdf.two_sentences', { first: why.fx, second: why.asset })],
    [tr.t('pdf.figure_nrv', { value: money(nrv?.value ?? null) }), why.nrv],
    [tr.t('pdf.figure_coverage', { percent: tr.percent(s.coverage.valued_percent) }), why.coverage],
  ];
  for (const [figure, sentence] of explained) p.paragraph(tr.t('pdf.two_sentences', { first: figure, second: sentence }), { size: 8, colour: PALETTE.muted });
}
