/** The PDF's projections and exit analysis sections for the largest holdings, or the note saying why they are left out. */
import type { AnalysedAsset, ReportData } from '../report-data';
import { PALETTE } from './palette';
import type { PdfPages } from './pdf-layout';
import { drawTable } from './pdf-table';
import { formatCompactMoney, formatInteger, formatMoney, formatPercent } from './text-format';
import { readable } from './labels';

export function drawEnrichment(p: PdfPages, data: ReportData): void {
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
        holdingCell(r, data.cover.audience === 'internal'),
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
        { label: data.cover.audience === 'internal' ? 'Holding (portfolio)' : 'Holding', width: 120 },
        { label: 'Timing', width: 82 },
        { label: 'Best channel', width: 140 },
        { label: 'Net proceeds', width: 70, align: 'right' },
        { label: 'Days', width: 40, align: 'right' },
        { label: 'Hold 12m', width: p.width - 452, align: 'right' },
      ],
      data.exit_analysis.data.map((e) => [
        holdingCell(e, data.cover.audience === 'internal'),
        { text: readable(e.recommendation), sub: `${readable(e.signal)}; window ${readable(e.optimal_window).toLowerCase()}` },
        // The next-best channel by its name, beside its proceeds: a bare "alt." amount left the reader to guess whose it was.
        { text: e.primary_channel, sub: `commission ${formatPercent(e.primary_commission_percent)}; next best: ${e.secondary_channel}, ${formatMoney(e.secondary_estimated_net, cur, 0)} net` },
        formatMoney(e.primary_estimated_net, cur, 0),
        e.primary_timeline_days,
        formatPercent(e.hold_12m_roi_percent, 1, true),
      ]),
    );
    if (data.exit_analysis.note) p.paragraph(data.exit_analysis.note, { size: 8, colour: PALETTE.muted });
  }
}

/**
 * The holding a row is about, with the number of identical holdings it stands for when more than
 * one: the value beside it is theirs together, and the reader should not take it for one piece.
 */
function holdingCell(r: AnalysedAsset, internal: boolean): { text: string; sub: string } {
  const count = r.holding_count > 1 ? [`${formatInteger(r.holding_count)} identical holdings`] : [];
  return { text: r.description, sub: [...(internal ? [r.portfolio] : []), ...count, r.asset_id].join(' · ') };
}
