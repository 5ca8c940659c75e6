/** The market dashboard as a workbook: Segments (with a 30-day change chart), Top movers, Alerts, Notes. */
import { DEFAULT_LANGUAGE, translator, type MessageKey } from '../../src/i18n';
import { codeWord, segmentLabel } from '../client-words';
import type { DashboardData, DashboardSegment } from '../report-data';
import { readable } from './labels';
import { DASHBOARD_SEGMENT_COLUMNS } from './dashboard-columns';
import { columnLetter, writeXlsxBook } from './xlsx-book';
import { NOTE_STYLE, SANDBOX_STYLE } from './xlsx-styles';
import { brandedBookMeta } from './xlsx-brand';

/** Each column's header in the dashboard's language (the CSV keeps the keys: programs read it). */
const COLUMN_LABELS: Record<keyof DashboardSegment, MessageKey> = {
  segment: 'dashboard.col_segment_id',
  segment_name: 'common.segment',
  momentum: 'dashboard.col_momentum',
  volume: 'dashboard.col_volume',
  sentiment: 'dashboard.col_sentiment',
  signal_strength: 'dashboard.col_signal_strength',
  price_trend: 'dashboard.col_price_trend',
  change_7d_percent: 'dashboard.col_7d',
  change_30d_percent: 'dashboard.col_30d',
  change_90d_percent: 'dashboard.col_90d',
  transaction_count_30d: 'dashboard.col_sales_30d',
  sentiment_score: 'dashboard.col_sentiment_score',
};

/** The workbook's words in the dashboard's language (`data.language`); English keeps its ISO dates in the notes. */
export async function writeDashboardXlsx(data: DashboardData, filePath: string): Promise<void> {
  const tr = translator(data.language ?? DEFAULT_LANGUAGE);
  const english = tr.lang.startsWith('en');
  const sheets = { segments: tr.t('dashboard.sheet_segments'), movers: tr.t('dashboard.sheet_top_movers'), alerts: tr.t('dashboard.sheet_alerts'), notes: tr.t('dashboard.sheet_notes') };
  const change30Label = tr.t('dashboard.col_change_30d');
  const meta = brandedBookMeta({ reference: data.report_id, sandbox: data.sandbox, currency: 'USD', creator: 'svc-report', created: new Date(data.generated_at) }, data.brand);
  await writeXlsxBook(filePath, meta, async (book) => {
    const seg = book.sheet(sheets.segments, DASHBOARD_SEGMENT_COLUMNS.map((c) => c.width), true, true);
    book.header(seg, DASHBOARD_SEGMENT_COLUMNS.map((c) => tr.t(COLUMN_LABELS[c.key])));
    for (const s of data.segments) seg.add(DASHBOARD_SEGMENT_COLUMNS.map((c) => {
      const v = s[c.key];
      return { value: c.display && typeof v === 'string' ? codeWord(tr, v) : v, kind: c.kind };
    }));
    const last = seg.row;
    seg.sheet.autoFilter = `A1:${columnLetter(DASHBOARD_SEGMENT_COLUMNS.length)}${last}`;
    const change30 = DASHBOARD_SEGMENT_COLUMNS.findIndex((c) => c.key === 'change_30d_percent') + 1;
    if (last >= 2) {
      book.charts.push({
        sheetNumber: book.sheetNumber(sheets.segments),
        anchor: { fromCol: 1, fromRow: last + 2, toCol: 10, toRow: last + 22 },
        spec: {
          kind: 'bar', title: tr.t('dashboard.chart_title'), sheetName: sheets.segments, seriesName: change30Label,
          categoryColumn: 'B', valueColumn: columnLetter(change30), firstRow: 2, lastRow: last,
          categories: data.segments.map((s) => s.segment_name), values: data.segments.map((s) => (s.change_30d_percent === null ? NaN : s.change_30d_percent / 100)),
          numberFormat: '0.0%', colours: [book.theme.benchmarks[0]!],
        },
      });
    }
    seg.sheet.commit();

    const movers = book.sheet(sheets.movers, [14, 26, 34, 12], true);
    book.header(movers, [tr.t('common.segment'), tr.t('dashboard.col_brand'), tr.t('dashboard.col_model'), change30Label]);
    for (const m of data.top_movers) movers.add([{ value: segmentLabel(tr, m.segment) }, { value: m.brand }, { value: m.model }, { value: m.change_30d_percent, kind: 'percent' }]);
    movers.sheet.autoFilter = `A1:D${Math.max(movers.row, 1)}`;
    movers.sheet.commit();

    const alerts = book.sheet(sheets.alerts, [14, 14, 12, 13, 36, 70, 20, 20], true, true);
    book.header(alerts, (['col_id', 'col_type', 'col_severity', 'segment', 'col_title', 'col_message', 'col_created', 'col_expires'] as const).map((k) => tr.t(k === 'segment' ? 'common.segment' : `dashboard.${k}`)));
    for (const a of data.alerts) {
      // The alert's type, title and message are the service's words; its severity is one of the codes the catalogue names.
      alerts.add([{ value: a.id }, { value: readable(a.type) }, { value: codeWord(tr, a.severity) }, { value: segmentLabel(tr, a.segment) }, { value: a.title }, { value: a.message }, { value: a.created_at }, { value: a.expires_at }]);
    }
    if (data.alerts.length === 0) alerts.add([{ value: tr.t('dashboard.no_alerts'), style: NOTE_STYLE }]);
    alerts.sheet.autoFilter = `A1:H${alerts.row}`;
    alerts.sheet.commit();

    const notes = book.sheet(sheets.notes, [100], false);
    notes.add([{ value: tr.t('dashboard.notes_heading', { date: english ? data.as_of : tr.date(data.as_of) }), style: book.look.section }]);
    if (data.sandbox) notes.add([{ value: tr.t('dashboard.sandbox_note'), style: SANDBOX_STYLE }]);
    notes.add([{ value: tr.t('dashboard.generated', { at: english ? data.generated_at : tr.timestamp(data.generated_at), validated: data.market_validated ? 'yes' : 'no' }), style: NOTE_STYLE }]);
    for (const n of data.notes) notes.paragraph(n, 'A', NOTE_STYLE);
    notes.paragraph(data.disclaimer, 'A', NOTE_STYLE);
    for (const d of data.brand?.disclosures ?? []) notes.paragraph(d, 'A', NOTE_STYLE);
    notes.sheet.commit();
  });
}
