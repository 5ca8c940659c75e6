/** What the writers print for people: capped error lists, readable labels, units, returns that fit, an empty report. */
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Holding, ReportData } from '../../reports/report-data';
import { writePdf, PDF_MAX_ERRORS } from '../../reports/writers/pdf';
import { writeXlsx } from '../../reports/writers/xlsx';
import { formatReturn } from '../../reports/writers/text-format';
import { makeDashboardData, makeReportData } from '../../fixtures/report-data';
import { writeDashboardXlsx } from '../../reports/writers/dashboard-xlsx';
import { folded, pdfText, tempDir } from './tools';

describe('report content for people', () => {
  it('lists the first errors in the PDF and counts the rest, so a flood of bad rows makes a short PDF; the workbook keeps them all', async () => {
    const data = makeReportData({ holdings: 3, errors: 20_000 });
    const dir = tempDir('many-errors');
    const pdf = path.join(dir, 'r.pdf');
    await writePdf(data, pdf);
    const text = folded(await pdfText(pdf));
    expect(text).toContain(`…and ${(20_000 - PDF_MAX_ERRORS).toLocaleString('en-US')} more rows not valued (20,000 in all)`);
    expect(text.match(/segment "yachts" is not one of/g)!.length).toBeLessThanOrEqual(PDF_MAX_ERRORS);
    const xlsx = path.join(dir, 'r.xlsx');
    await writeXlsx(data, xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    expect(wb.getWorksheet('Errors')!.rowCount).toBeGreaterThanOrEqual(20_001);
  }, 180_000);

  it('shows enums as words in the workbook (exit timing, momentum, segment) and keeps the codes in the data', async () => {
    const data = makeReportData({ holdings: 12 });
    const file = path.join(tempDir('labels'), 'r.xlsx');
    await writeXlsx(data, file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const values = (name: string) => wb.getWorksheet(name)!.getSheetValues().flat().map(String);
    expect(values('Exit analysis')).toContain('Monitor closely');
    expect(values('Exit analysis')).not.toContain('monitor_closely');
    const holdings = values('Holdings');
    expect(holdings.some((v) => /^(Positive|Neutral|Negative)$/.test(v))).toBe(true);
    expect(holdings).not.toContain('real_estate');
    expect(values('Performance')).toContain('vs Luxury index (points)');
  });

  it('shows the dashboard\'s enums as words in its workbook too', async () => {
    const file = path.join(tempDir('dash-labels'), 'd.xlsx');
    await writeDashboardXlsx(makeDashboardData(), file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const all = wb.worksheets.flatMap((ws) => ws.getSheetValues().flat().map(String));
    expect(all).toContain('Above average');
    expect(all).not.toContain('above_average');
  });

  it('keeps a return above 1,000 % on one line in the holdings table', async () => {
    const base = makeReportData({ holdings: 3 });
    const rows = ([...base.holdings] as Holding[]).map((h, i) => (i === 0 ? { ...h, return_percent: 23_123.04 } : h));
    const data: ReportData = { ...base, holdings: rows };
    const file = path.join(tempDir('big-return'), 'r.pdf');
    await writePdf(data, file);
    expect(formatReturn(23_123.04)).toBe('+23,123 %');
    const layout = await pdfText(file, true);
    expect(layout.split('\n').some((line) => line.includes('+23,123 %'))).toBe(true);
  });

  it('an empty report has no chart drawn over its heading, only a sentence', async () => {
    const data = makeReportData({ holdings: 0, errors: 2 });
    const file = path.join(tempDir('empty-donut'), 'r.pdf');
    await writePdf(data, file);
    const text = folded(await pdfText(file));
    expect(text).toContain('No holding could be valued for this report, so there is no allocation to show');
    expect(text).not.toContain('Total value');
  });
});
