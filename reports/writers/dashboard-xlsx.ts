/** The market dashboard as a workbook: Segments (with a 30-day change chart), Top movers, Alerts, Notes. */
import type { DashboardData } from '../report-data';
import { textDate, valueLabel } from './labels';
import { segmentName } from '../client-words';
import { dashboardSegmentColumns } from './dashboard-columns';
import { translator, type MessageKey, type Translator } from '../../src/i18n';
import { columnLetter, writeXlsxBook } from './xlsx-book';
import { NOTE_STYLE, SANDBOX_STYLE } from './xlsx-styles';
import { brandedBookMeta } from './xlsx-brand';

const labels = (tr: Translator, keys: readonly MessageKey[]): string[] => keys.map((k) => tr.t(k));

export async function writeDashboardXlsx(data: DashboardData, filePath: string): Promise<void> {
  const tr = translator(data.language ?? 'en');
  const meta = brandedBookMeta({ reference: data.report_id, sandbox: data.sandbox, currency: 'USD', creator: 'svc-report', created: new Date(data.generated_at), tr }, data.brand);
  const DASHBOARD_SEGMENT_COLUMNS = dashboardSegmentColumns(tr);
  await writeXlsxBook(filePath, meta, async (book) => {
    const segments = tr.t('xlsx.sheet_segments');
    const seg = book.sheet(segments, DASHBOARD_SEGMENT_COLUMNS.map((c) => c.width), true, true);
    book.header(seg, DASHBOARD_SEGMENT_COLUMNS.map((c) => c.label));
    for (const s of data.segments) seg.add(DASHBOARD_SEGMENT_COLUMNS.map((c) => {
      const v = s[c.key];
      return { value: c.key === 'segment_name' ? segmentName(tr, s.segment) : c.display && typeof v === 'string' ? c.display(v, tr) : v, kind: c.kind };
    }));
    const last = seg.row;
    seg.sheet.autoFilter = `A1:${columnLetter(DASHBOARD_SEGMENT_COLUMNS.length)}${last}`;
    const change30 = DASHBOARD_SEGMENT_COLUMNS.findIndex((c) => c.key === 'change_30d_percent') + 1;
    if (last >= 2) {
      book.charts.push({
        sheetNumber: book.sheetNumber(segments),
        anchor: { fromCol: 1, fromRow: last + 2, toCol: 10, toRow: last + 22 },
        spec: {
          kind: 'bar', title: tr.t('xlsx.chart_change_30d'), sheetName: segments, seriesName: tr.t('columns.change_30d_long'),
          categoryColumn: 'B', valueColumn: columnLetter(change30), firstRow: 2, lastRow: last,
          categories: data.segments.map((s) => segmentName(tr, s.segment)), values: data.segments.map((s) => (s.change_30d_percent === null ? NaN : s.change_30d_percent / 100)),
          numberFormat: '0.0%', colours: [book.theme.benchmarks[0]!],
        },
      });
    }
    seg.sheet.commit();

    const movers = book.sheet(tr.t('xlsx.sheet_top_movers'), [14, 26, 34, 12], true);
    book.header(movers, labels(tr, ['columns.segment', 'columns.brand', 'columns.model', 'columns.change_30d_long']));
    for (const m of data.top_movers) movers.add([{ value: segmentName(tr, m.segment) }, { value: m.brand }, { value: m.model }, { value: m.change_30d_percent, kind: 'percent' }]);
    movers.sheet.autoFilter = `A1:D${Math.max(movers.row, 1)}`;
    movers.sheet.commit();

    const alerts = book.sheet(tr.t('xlsx.sheet_alerts'), [14, 14, 12, 13, 36, 70, 20, 20], true, true);
    book.header(alerts, labels(tr, ['columns.id', 'columns.type', 'columns.severity', 'columns.segment', 'columns.title', 'columns.message', 'columns.created', 'columns.expires']));
    for (const a of data.alerts) {
      alerts.add([{ value: a.id }, { value: valueLabel(a.type, tr) }, { value: valueLabel(a.severity, tr) }, { value: segmentName(tr, a.segment) }, { value: a.title }, { value: a.message }, { value: a.created_at }, { value: a.expires_at }]);
    }
    if (data.alerts.length === 0) alerts.add([{ value: tr.t('xlsx.no_alerts'), style: NOTE_STYLE }]);
    alerts.sheet.autoFilter = `A1:H${alerts.row}`;
    alerts.sheet.commit();

    const notes = book.sheet(tr.t('xlsx.sheet_notes'), [100], false);
    notes.add([{ value: tr.t('xlsx.dashboard_heading', { date: textDate(tr, data.as_of) }), style: book.look.section }]);
    if (data.sandbox) notes.add([{ value: tr.t('xlsx.sandbox_banner'), style: SANDBOX_STYLE }]);
    notes.add([{ value: tr.t('xlsx.dashboard_generated', { at: data.generated_at, validated: data.market_validated ? 'yes' : 'no' }), style: NOTE_STYLE }]);
    for (const n of data.notes) notes.paragraph(n, 'A', NOTE_STYLE);
    notes.paragraph(data.disclaimer, 'A', NOTE_STYLE);
    for (const d of data.brand?.disclosures ?? []) notes.paragraph(d, 'A', NOTE_STYLE);
    notes.sheet.commit();
  });
}
