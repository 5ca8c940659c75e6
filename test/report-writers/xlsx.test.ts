import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Holding } from '../../reports/report-data';
import { holdingColumns } from '../../reports/writers/holding-columns';
import { writeXlsx } from '../../reports/writers/xlsx';
import { writeDashboardXlsx } from '../../reports/writers/dashboard-xlsx';
import { INJECTION_DESCRIPTIONS, makeDashboardData, makeReportData } from '../../fixtures/report-data';
import { folded, libreOfficeConvert, pdfText, tempDir } from './tools';

const data = makeReportData({ holdings: 60, injections: true, errors: 4, previous: true });
const holdings = [...data.holdings] as Holding[];
/** A client report's columns (no Portfolio column). */
const HOLDING_COLUMNS = holdingColumns(data);
const dir = tempDir('xlsx');
const file = path.join(dir, 'report.xlsx');
const col = (key: keyof Holding) => HOLDING_COLUMNS.findIndex((c) => c.key === key) + 1;
let wb: ExcelJS.Workbook;
let zip: JSZip;

beforeAll(async () => {
  await writeXlsx(data, file);
  wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  zip = await JSZip.loadAsync(readFileSync(file));
});

describe('XLSX writer, read back with exceljs', () => {
  it('has the report sheets in order', () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Holdings', 'Allocation', 'Performance', 'Projections', 'Exit analysis', 'Errors']);
  });

  it('holds real numbers with currency, percent and date formats, never numbers as text', () => {
    const ws = wb.getWorksheet('Holdings')!;
    expect(ws.rowCount).toBe(61);
    for (const [i, h] of holdings.entries()) {
      const row = ws.getRow(i + 2);
      expect(row.getCell(col('row')).value).toBe(h.row);
      expect(row.getCell(col('purchase_price')).value).toBe(h.purchase_price);
      expect(row.getCell(col('current_value')).value).toBe(h.current_value);
      expect(row.getCell(col('return_percent')).value).toBeCloseTo((h.return_percent ?? 0) / 100, 10);
      expect(row.getCell(col('market_validated')).value).toBe(h.market_validated);
      expect(row.getCell(col('purchase_date')).value).toEqual(new Date(`${h.purchase_date}T00:00:00Z`));
    }
    const sample = ws.getRow(10);
    expect(sample.getCell(col('current_value')).numFmt).toContain('"$"#,##0.00');
    expect(sample.getCell(col('weight_percent')).numFmt).toBe('0.00%');
    expect(sample.getCell(col('purchase_date')).numFmt).toBe('yyyy-mm-dd');
    for (const c of HOLDING_COLUMNS.filter((c) => ['money', 'percent', 'ratio', 'int'].includes(c.kind))) {
      ws.getColumn(HOLDING_COLUMNS.indexOf(c) + 1).eachCell({ includeEmpty: false }, (cell, rowNumber) => {
        // Empty (null) cells stand for "not available"; anything present is a number.
        if (rowNumber > 1 && cell.value !== null) expect(typeof cell.value, `${c.key} row ${rowNumber}`).toBe('number');
      });
    }
  });

  it('freezes the header row and filters the holdings as an Excel table', () => {
    const ws = wb.getWorksheet('Holdings')!;
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    // The filter is the Holdings table's own (read back with openpyxl in xlsx-document.test.ts), not a sheet autoFilter.
    expect(ws.autoFilter).toBeUndefined();
    expect(Object.keys((ws as unknown as { tables: Record<string, unknown> }).tables)).toEqual(['Holdings']);
    expect(ws.getRow(1).getCell(1).value).toBe('Row');
    expect(ws.getColumn(col('description')).width).toBeGreaterThan(30);
    expect(wb.getWorksheet('Errors')!.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('neutralises formula injection in text cells (no formulas anywhere)', () => {
    const ws = wb.getWorksheet('Holdings')!;
    const descriptions = INJECTION_DESCRIPTIONS.map((_, i) => ws.getRow(i + 2).getCell(col('description')).value);
    // XML normalises a carriage return in text to a line feed; the quote prefix is what matters.
    expect(descriptions).toEqual(INJECTION_DESCRIPTIONS.map((d) => `'${d}`.replace(/\r/g, '\n')));
    const errorsSheet = wb.getWorksheet('Errors')!;
    expect(errorsSheet.getRow(4).getCell(3).value).toMatch(/^'=cmd/);
    for (const ws of wb.worksheets) {
      ws.eachRow((row) => row.eachCell((cell) => expect(cell.type, `${ws.name}!${cell.address}`).not.toBe(ExcelJS.ValueType.Formula)));
    }
  });

  it('puts the summary figures on the Summary sheet as numbers', () => {
    const ws = wb.getWorksheet('Summary')!;
    const byLabel = new Map<string, ExcelJS.Row>();
    ws.eachRow((row) => byLabel.set(String(row.getCell(1).value), row));
    expect(byLabel.get('Current value (mid estimate)')!.getCell(2).value).toBe(data.summary.current_value);
    expect(byLabel.get('Total invested')!.getCell(2).value).toBe(data.summary.total_invested);
    expect(byLabel.get('Return since purchase')!.getCell(2).numFmt).toBe('0.00%');
    expect(byLabel.has('Disclaimer')).toBe(true);
  });

  it('lists the errors with row, field and message', () => {
    const ws = wb.getWorksheet('Errors')!;
    const rows = data.errors.map((_, i) => ws.getRow(i + 2).values as unknown[]);
    expect(rows.map((r) => r[1] ?? null)).toEqual(data.errors.map((e) => e.row));
    expect(rows.map((r) => r[2] ?? '')).toEqual(data.errors.map((e) => e.field));
  });

  it('contains native charts wired into the package', async () => {
    const names = Object.keys(zip.files);
    expect(names).toEqual(expect.arrayContaining(['xl/charts/chart1.xml', 'xl/charts/chart2.xml', 'xl/drawings/drawing1.xml', 'xl/drawings/_rels/drawing1.xml.rels']));
    const types = await zip.file('[Content_Types].xml')!.async('string');
    expect(types).toContain('PartName="/xl/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"');
    const allocation = await zip.file('xl/worksheets/sheet3.xml')!.async('string');
    expect(allocation).toMatch(/<drawing r:id="[^"]+"\/><\/worksheet>$/);
    const pie = await zip.file('xl/charts/chart1.xml')!.async('string');
    expect(pie).toContain('<c:pieChart>');
    expect(pie).toContain('<c:f>&apos;Allocation&apos;!$E$2:$E$11</c:f>');
    const bar = await zip.file('xl/charts/chart2.xml')!.async('string');
    expect(bar).toContain('<c:barDir val="col"/>');
  });

  it('leaves no working files next to the report', async () => {
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual(['report.xlsx']);
  });
});

describe('XLSX opens in LibreOffice', () => {
  it('converts the report, charts included, to PDF without error', async () => {
    const out = tempDir('lo');
    const { path: pdf } = await libreOfficeConvert(file, 'pdf', out);
    const text = folded(await pdfText(pdf));
    // Chart titles are drawn by LibreOffice only when it parsed the chart parts.
    expect(text).toContain('Allocation by segment');
    expect(text).toContain('One-year return: portfolio vs benchmarks');
    expect(text).toContain(holdings[10]!.description);
  });

  it('converts the dashboard workbook too', async () => {
    const out = tempDir('lo-dash');
    const dash = path.join(out, 'dashboard.xlsx');
    await writeDashboardXlsx(makeDashboardData(), dash);
    const { path: pdf } = await libreOfficeConvert(dash, 'pdf', out);
    expect(folded(await pdfText(pdf))).toContain('30-day price change by segment');
  });
});

