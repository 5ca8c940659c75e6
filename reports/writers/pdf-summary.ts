/** The PDF's summary section: key figures, allocation donut with concentration, segment table, and what the figures mean. */
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import { donutAlt, donutChart } from './pdf-charts';
import { drawFigures } from './pdf-figure-cards';
import { type PdfPages, hex } from './pdf-layout';
import { signedColour } from './pdf-signed-colour';
import { drawTable } from './pdf-table';
import { formatCompactMoney, formatInteger, formatLongDate, formatMoney, formatPercent, formatReturn } from './text-format';
import { annualisedMissing, counted, figureSentences, netRealisable, timeWeightedLabel, validatedShare } from './figure-notes';
import { moneyWeightedLabel, notAnnualisedNote, portfolioPeriod } from './return-period';

export function drawSummary(p: PdfPages, data: ReportData): void {
  const { doc } = p;
  const { summary: s, cover: c, concentration } = data;
  const cur = c.currency;
  p.addPage();
  p.section('Summary');
  const mom = s.month_on_month;
  const held = portfolioPeriod(s);
  const since = s.returns_since;
  drawFigures(p, [
    { label: 'Current value', value: formatMoney(s.current_value, cur), sub: `Range ${formatMoney(s.current_value_low, cur, 0)} – ${formatMoney(s.current_value_high, cur, 0)}` },
    { label: 'Total invested', value: formatMoney(s.total_invested, cur), sub: `${counted(s.asset_count, 'holding')} in ${counted(s.segment_count, 'segment')}` },
    { label: 'Gain since purchase', value: formatMoney(s.gain, cur), colour: signedColour(s.gain) },
    { label: 'Return since purchase', value: formatPercent(s.total_return_percent, 1, true), colour: signedColour(s.total_return_percent) },
    {
      label: moneyWeightedLabel(held),
      value: formatReturn(s.money_weighted_return_percent),
      colour: signedColour(s.money_weighted_return_percent),
      // The since-inception figure of the performance page, with its start: the two pages say one thing.
      sub: s.money_weighted_return_percent === null || !since ? 'not available (see below)' : held.annualised ? `money-weighted, since ${formatLongDate(since.from)}` : `money-weighted, ${notAnnualisedNote(held)}`,
    },
    // The one monthly figure of the headline; without an earlier month-end the yearly return since purchase takes its place.
    mom
      ? { label: 'Change since last month-end', value: formatMoney(mom.change, cur, 0), colour: signedColour(mom.change), sub: `${formatPercent(mom.change_percent, 1, true)} since ${formatLongDate(mom.previous_as_of)}` }
      : { label: 'Annualised return', value: formatReturn(s.annualised_return_percent), colour: signedColour(s.annualised_return_percent), sub: s.annualised_return_percent !== null ? 'a year, since each purchase' : annualisedMissing(s) },
  ]);
  // On the page every client reads: how much of the value the market confirms, and where the rest is when too little is.
  if (s.asset_count > 0) p.paragraph(validatedShare(s), { size: 8.5, colour: PALETTE.muted });
  if (s.validation_warning) p.note(s.validation_warning);

  p.subheading('Allocation by segment');
  if (data.allocation.length === 0) {
    // Nothing valued: a sentence, not an empty chart drawn over the heading.
    p.paragraph('No holding could be valued for this report, so there is no allocation to show; the rows not valued are listed at the end.', { colour: PALETTE.muted });
    return;
  }
  p.ensureSpace(150);
  const slices = data.allocation.map((a, i) => ({ label: a.segment_name, value: a.value, colour: p.theme.series[i % p.theme.series.length]! }));
  const y = doc.y;
  const centre = { label: 'Total value', value: formatCompactMoney(s.current_value, cur), colour: p.theme.primary };
  const used = p.figure(donutAlt('Allocation of the portfolio value by segment', slices, centre), { x: p.left + 4, y, width: 352, height: 130 }, () =>
    donutChart(doc, p.left + 4, y, 130, slices, centre, 190),
  );
  // Concentration beside the legend.
  const cx = p.left + 362;
  const cw = p.right - cx;
  p.tag('H3', () => doc.font('sansBold').fontSize(8).fillColor(hex(p.theme.primary)).text('CONCENTRATION', cx, y + 4, { width: cw, characterSpacing: 0.6 }));
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
export function drawFigureNotes(p: PdfPages, data: ReportData): void {
  const { summary: s, cover: c } = data;
  const cur = c.currency;
  const mom = s.month_on_month;
  p.ensureSpace(120);
  p.subheading('What these figures mean');
  const why = figureSentences(data);
  const nrv = netRealisable(data);
  const explained: [string, string][] = [
    [mom ? `Change since last month-end: ${formatMoney(mom.change, cur, 0)}.` : 'Change since last month-end: –.', why.change],
    [`${moneyWeightedLabel(portfolioPeriod(s))}: ${formatReturn(s.money_weighted_return_percent)}.`, why.mwr],
    [`${timeWeightedLabel(s)}: ${formatReturn(s.time_weighted_return_percent)}.`, why.twr],
    [`Exchange-rate effect: ${formatMoney(s.fx_effect, cur, 0)}; asset effect: ${formatMoney(s.asset_effect, cur, 0)}.`, `${why.fx} ${why.asset}`],
    [`Net realisable value: ${formatMoney(nrv?.value ?? null, cur, 0)}.`, why.nrv],
    [`Coverage: ${formatPercent(s.coverage.valued_percent)} valued.`, why.coverage],
  ];
  for (const [figure, sentence] of explained) p.paragraph(`${figure} ${sentence}`, { size: 8, colour: PALETTE.muted });
}
