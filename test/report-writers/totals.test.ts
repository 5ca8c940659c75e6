/** The same portfolio written in all four formats tells the same totals. */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WrittenFile } from '../../reports/report-data';
import { writeReport } from '../../reports/writers';
import { formatMoney } from '../../reports/writers/text-format';
import { makeReportData } from '../../fixtures/report-data';
import { folded, pdfText, tempDir } from './tools';

const data = makeReportData({ holdings: 60, injections: true, errors: 4, previous: true, currency: 'EUR', portfolioName: 'Château Ñandú — Fonds №2' });
let files: Record<string, string>;

beforeAll(async () => {
  const written: WrittenFile[] = await writeReport(data, tempDir('totals'), ['xlsx', 'csv', 'json', 'pdf']);
  files = Object.fromEntries(written.map((w) => [w.format, w.path]));
});

const cents = (n: number) => Math.round(n * 100);

describe('totals agree across XLSX, CSV, JSON and PDF', () => {
  it('names every file after the portfolio slug and date', () => {
    for (const [format, file] of Object.entries(files)) expect(file).toMatch(new RegExp(`/chateau-nandu-fonds-no2-2026-10-31\\.${format}$`));
  });

  it('the value, cost and count match', async () => {
    const json = JSON.parse(readFileSync(files.json!, 'utf8'));
    const csv = parse(readFileSync(files.csv!), { bom: true, columns: true }) as Record<string, string>[];
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(files.xlsx!);
    const header = Array.from(wb.getWorksheet('Holdings')!.getRow(1).values as unknown[], (v) => String(v));
    const column = (label: string) => header.findIndex((h) => h.startsWith(label));
    const xlsxHoldings: number[] = [];
    const xlsxCost: number[] = [];
    wb.getWorksheet('Holdings')!.eachRow((row, n) => {
      if (n === 1) return;
      xlsxHoldings.push(row.getCell(column('Value mid')).value as number);
      xlsxCost.push(row.getCell(column('Cost (EUR)')).value as number);
    });
    const summary = new Map<string, unknown>();
    wb.getWorksheet('Summary')!.eachRow((row) => summary.set(String(row.getCell(1).value), row.getCell(2).value));

    const total = data.summary.current_value;
    const sum = (xs: number[]) => cents(xs.reduce((a, b) => a + b, 0));
    expect(json.summary.current_value).toBe(total);
    expect(summary.get('Current value (mid estimate)')).toBe(total);
    expect(summary.get('Total invested')).toBe(json.summary.total_invested);
    // The holdings add up to the headline figure in every format (to the cent).
    expect(sum(json.holdings.map((h: { current_value: number }) => h.current_value))).toBe(cents(total));
    expect(sum(csv.map((r) => Number(r.current_value)))).toBe(cents(total));
    expect(sum(xlsxHoldings)).toBe(cents(total));
    expect(sum(xlsxCost)).toBe(cents(json.summary.total_invested));
    expect(csv).toHaveLength(json.summary.asset_count);
    expect(xlsxHoldings).toHaveLength(json.summary.asset_count);
    expect(new Set(csv.map((r) => r.currency))).toEqual(new Set(['EUR']));

    const pdf = folded(await pdfText(files.pdf!));
    expect(pdf).toContain(formatMoney(total, 'EUR'));
    expect(pdf).toContain(formatMoney(json.summary.total_invested, 'EUR'));
    expect(pdf).toContain(`Total 60 ${formatMoney(total, 'EUR', 0)}`);
  });

  it('the euro amounts carry the euro format in the workbook', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(files.xlsx!);
    const header = Array.from(wb.getWorksheet('Holdings')!.getRow(1).values as unknown[], (v) => String(v));
    expect(wb.getWorksheet('Holdings')!.getRow(2).getCell(header.indexOf('Value mid')).numFmt).toContain('"€"');
  });
});
