import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { writeDashboard } from '../../reports/writers';
import { makeDashboardData } from '../../fixtures/report-data';
import { folded, pdfText, tempDir } from './tools';

describe('market dashboard writers', () => {
  it('writes all four formats and they read back', async () => {
    const data = makeDashboardData();
    const written = await writeDashboard(data, tempDir('dash'), ['xlsx', 'csv', 'json', 'pdf']);
    const files = Object.fromEntries(written.map((w) => [w.format, w.path]));
    expect(files.csv).toMatch(/market-dashboard-2026-10-31\.csv$/);

    const csv = parse(readFileSync(files.csv!), { bom: true, columns: true }) as Record<string, string>[];
    expect(csv.map((r) => r.segment)).toEqual(data.segments.map((s) => s.segment));
    expect(csv.map((r) => Number(r.change_30d_percent))).toEqual(data.segments.map((s) => s.change_30d_percent));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(files.xlsx!);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Segments', 'Top movers', 'Alerts', 'Notes']);
    const movers = wb.getWorksheet('Top movers')!;
    expect(movers.getRow(3).getCell(3).value).toBe("'=Pumpkin");
    expect(movers.getRow(2).getCell(4).value).toBeCloseTo(0.084, 10);
    expect(wb.getWorksheet('Segments')!.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    expect(JSON.parse(readFileSync(files.json!, 'utf8')).alerts[0].title).toBe(data.alerts[0]!.title);

    // pdftotext is required (.ci/run installs poppler-utils): without it this test fails, it does not pass silently.
    const text = folded(await pdfText(files.pdf!));
    for (const s of data.segments) expect(text).toContain(s.segment_name);
    expect(text).toContain(data.alerts[0]!.title);
    expect(text).toContain('Rolex');
    expect(text).toContain('SANDBOX DATA');
  });
});
