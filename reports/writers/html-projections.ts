/** Projections and exit analysis on the page (pdf-projections-exit.ts), or the notes saying why they are left out. */
import type { Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import { analysedHolding as holdingCell, exitCells, projectionCells } from './analysed-holding';
import { html, type SafeHtml } from './html-escape';
import { htmlTable, type HtmlCell } from './html-table';

export function projectionsHtml(data: ReportData, tr: Translator): SafeHtml {
  const cur = data.cover.currency;
  const internal = data.cover.audience === 'internal';
  const holding = { label: internal ? tr.t('pdf.col_holding_portfolio') : tr.t('pdf.col_holding') };
  const p = data.projections;
  if (!p.included) return html`<p class="note">${p.note}</p>`;
  return html`${htmlTable({
    caption: tr.t('pdf.projections'),
    columns: [
      holding, { label: tr.t('pdf.col_value_now'), numeric: true }, { label: tr.t('pdf.col_roi_12'), numeric: true }, { label: tr.t('pdf.col_roi_24'), numeric: true },
      { label: tr.t('pdf.col_roi_36'), numeric: true }, { label: tr.t('pdf.col_range_36'), numeric: true }, { label: tr.t('pdf.col_conf'), numeric: true },
    ],
    rows: p.data.map((r) => projectionCells(r, internal, cur, tr)),
  })}
<p class="muted">${tr.t('pdf.expected_return_note')}</p>
${p.note ? html`<p class="muted">${p.note}</p>` : ''}`;
}

export function exitHtml(data: ReportData, tr: Translator): SafeHtml {
  const cur = data.cover.currency;
  const internal = data.cover.audience === 'internal';
  const e = data.exit_analysis;
  if (!e.included) return html`<p class="note">${e.note}</p>`;
  return html`${htmlTable({
    caption: tr.t('pdf.exit_analysis'),
    columns: [
      { label: internal ? tr.t('pdf.col_holding_portfolio') : tr.t('pdf.col_holding') }, { label: tr.t('pdf.col_timing') }, { label: tr.t('pdf.col_best_channel') },
      { label: tr.t('pdf.col_net_proceeds'), numeric: true }, { label: tr.t('pdf.col_days'), numeric: true }, { label: tr.t('pdf.col_hold_12'), numeric: true },
    ],
    rows: e.data.map((x) => [
      holdingCell(x, internal, tr),
      ...exitCells(x, cur, tr),
      { text: tr.money(x.primary_estimated_net, cur, 0), value: x.primary_estimated_net },
      String(x.primary_timeline_days),
      { text: tr.percent(x.hold_12m_roi_percent, { signed: true }), value: x.hold_12m_roi_percent, sign: x.hold_12m_roi_percent },
    ]),
  })}
${e.note ? html`<p class="muted">${e.note}</p>` : ''}`;
}
