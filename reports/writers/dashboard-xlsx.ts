/** The market dashboard as a workbook: Segments (with a 30-day change chart), Top movers, Alerts, Notes. */
import type { DashboardData } from '../report-data';
import { readable, segmentLabel } from './labels';
import { DASHBOARD_SEGMENT_COLUMNS } from './dashboard-columns';
import { columnLetter, writeXlsxBook } from './xlsx-book';
import { NOTE_STYLE, SANDBOX_STYLE } from './xlsx-styles';
import { brandedBookMeta } from './xlsx-brand';

export async function writeDashboardXlsx(data: DashboardData, filePath: string): Promise<void> {
  const meta = brandedBookMeta({ reference: data.report_id, sandbox: data.sandbox, currency: 'USD', creator: 'svc-report', created: new Date(data.generated_at) }, data.brand);
  await writeXlsxBook(filePath, meta, async (book) => {
    const seg = book.sheet('Segments', DASHBOARD_SEGMENT_COLUMNS.map((c) => c.width), true, true);
    book.header(seg, DASHBOARD_SEGMENT_COLUMNS.map((c) => c.label));
    for (const s of data.segments) seg.add(DASHBOARD_SEGMENT_COLUMNS.map((c) => {
      const v = s[c.key];
      return { value: c.display && typeof v === 'string' ? c.display(v) : v, kind: c.kind };
    }));
    const last = seg.row;
    seg.sheet.autoFilter = `A1:${columnLetter(DASHBOARD_SEGMENT_COLUMNS.length)}${last}`;
    const change30 = DASHBOARD_SEGMENT_COLUMNS.findIndex((c) => c.key === 'change_30d_percent') + 1;
    if (last >= 2) {
      book.charts.push({
        sheetNumber: book.sheetNumber('Segments'),
        anchor: { fromCol: 1, fromRow: last + 2, toCol: 10, toRow: last + 22 },
        spec: {
          kind: 'bar', title: '30-day price change by segment', sheetName: 'Segments', seriesName: '30-day change',
          categoryColumn: 'B', valueColumn: columnLetter(change30), firstRow: 2, lastRow: last,
          categories: data.segments.map((s) => s.segment_name), values: data.segments.map((s) => (s.change_30d_percent === null ? NaN : s.change_30d_percent / 100)),
          numberFormat: '0.0%', colours: [book.theme.benchmarks[0]!],
        },
      });
    }
    seg.sheet.commit();

    const movers = book.sheet('Top movers', [14, 26, 34, 12], true);
    book.header(movers, ['Segment', 'Brand', 'Model', '30-day change']);
    for (const m of data.top_movers) movers.add([{ value: segmentLabel(m.segment) }, { value: m.brand }, { value: m.model }, { value: m.change_30d_percent, kind: 'percent' }]);
    movers.sheet.autoFilter = `A1:D${Math.max(movers.row, 1)}`;
    movers.sheet.commit();

    const alerts = book.sheet('Alerts', [14, 14, 12, 13, 36, 70, 20, 20], true, true);
    book.header(alerts, ['Id', 'Type', 'Severity', 'Segment', 'Title', 'Message', 'Created', 'Expires']);
    for (const a of data.alerts) {
      alerts.add([{ value: a.id }, { value: readable(a.type) }, { value: readable(a.severity) }, { value: segmentLabel(a.segment) }, { value: a.title }, { value: a.message }, { value: a.created_at }, { value: a.expires_at }]);
    }
    if (data.alerts.length === 0) alerts.add([{ value: 'No active alerts.', style: NOTE_STYLE }]);
    alerts.sheet.autoFilter = `A1:H${alerts.row}`;
    alerts.sheet.commit();

    const notes = book.sheet('Notes', [100], false);
    notes.add([{ value: `Market dashboard — ${data.as_of}`, style: book.look.section }]);
    if (data.sandbox) notes.add([{ value: 'SANDBOX DATA — produced against the test sandbox, not the live service.', style: SANDBOX_STYLE }]);
    notes.add([{ value: `Generated ${data.generated_at}; market validated: ${data.market_validated ? 'yes' : 'no'}.`, style: NOTE_STYLE }]);
    for (const n of data.notes) notes.paragraph(n, 'A', NOTE_STYLE);
    notes.paragraph(data.disclaimer, 'A', NOTE_STYLE);
    for (const d of data.brand?.disclosures ?? []) notes.paragraph(d, 'A', NOTE_STYLE);
    notes.sheet.commit();
  });
}
