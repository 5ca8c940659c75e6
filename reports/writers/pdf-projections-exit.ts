/** The PDF's projections and exit analysis sections for the largest holdings, or the note saying why they are left out. */
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import type { PdfPages } from './pdf-layout';
import { drawTable } from './pdf-table';
import type { Translator } from '../../src/i18n';
import { reportTranslator } from './report-language';
import { analysedHolding as holdingCell, exitCells, projectionCells } from './analysed-holding';

export function drawEnrichment(p: PdfPages, data: ReportData): void {
  const cur = data.cover.currency;
  const tr = reportTranslator(data);
  const internal = data.cover.audience === 'internal';
  const holdingLabel = internal ? tr.t('pdf.col_holding_portfolio') : tr.t('pdf.col_holding');
  const signed = (v: number | null) => tr.percent(v, { signed: true });
  p.addPage();
  p.section(tr.t('pdf.projections'));
  if (!data.projections.included) p.note(data.projections.note);
  else {
    drawTable(
      p,
      [
        { label: holdingLabel, width: 170 },
        { label: tr.t('pdf.col_value_now'), width: 66, align: 'right' },
        { label: tr.t('pdf.col_roi_12'), width: 46, align: 'right' },
        { label: tr.t('pdf.col_roi_24'), width: 46, align: 'right' },
        { label: tr.t('pdf.col_roi_36'), width: 46, align: 'right' },
        { label: tr.t('pdf.col_range_36'), width: 95, align: 'right' },
        { label: tr.t('pdf.col_conf'), width: p.width - 469, align: 'right' },
      ],
      data.projections.data.map((r) => projectionCells(r, internal, cur, tr)),
    );
    p.paragraph(tr.t('pdf.expected_return_note'), { size: 8, colour: PALETTE.muted });
    if (data.projections.note) p.paragraph(data.projections.note, { size: 8, colour: PALETTE.muted });
  }
  p.section(tr.t('pdf.exit_analysis'));
  if (!data.exit_analysis.included) p.note(data.exit_analysis.note);
  else {
    drawTable(
      p,
      [
        { label: holdingLabel, width: 120 },
        { label: tr.t('pdf.col_timing'), width: 82 },
        { label: tr.t('pdf.col_best_channel'), width: 140 },
        { label: tr.t('pdf.col_net_proceeds'), width: 70, align: 'right' },
        { label: tr.t('pdf.col_days'), width: 40, align: 'right' },
        { label: tr.t('pdf.col_hold_12'), width: p.width - 452, align: 'right' },
      ],
      data.exit_analysis.data.map((e) => [
        holdingCell(e, internal, tr),
        ...exitCells(e, cur, tr),
        tr.money(e.primary_estimated_net, cur, 0),
        e.primary_timeline_days,
        signed(e.hold_12m_roi_percent),
      ]),
    );
    if (data.exit_analysis.note) p.paragraph(data.exit_analysis.note, { size: 8, colour: PALETTE.muted });
  }
}
