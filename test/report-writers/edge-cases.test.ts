/** Portfolios at the edges: empty, a tier without enrichment, text that breaks naive writers. */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Holding } from '../../reports/report-data';
import { writeReport } from '../../reports/writers';
import { makeReportData } from '../../fixtures/report-data';
import { folded, pdfText, tempDir } from './tools';

describe('edge cases', () => {
  it('an empty portfolio on a starter tier writes every format', async () => {
    const data = makeReportData({ holdings: 0, starterTier: true, errors: 2 });
    const written = await writeReport(data, tempDir('empty'), ['xlsx', 'csv', 'json', 'pdf']);
    const files = Object.fromEntries(written.map((w) => [w.format, w.path]));
    expect(parse(readFileSync(files.csv!), { bom: true })).toHaveLength(1);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(files.xlsx!);
    expect(wb.getWorksheet('Holdings')!.rowCount).toBe(1);
    expect(String(wb.getWorksheet('Projections')!.getRow(2).getCell(1).value)).toContain('Projections are not part of this report.');
    expect(JSON.parse(readFileSync(files.json!, 'utf8')).errors).toHaveLength(2);
    expect(folded(await pdfText(files.pdf!))).toContain('Rows not valued');
  });

  it('keeps very long and unusual descriptions intact where the format allows', async () => {
    const base = makeReportData({ holdings: 3 });
    const rows = [...base.holdings] as Holding[];
    rows[0] = { ...rows[0]!, description: 'x'.repeat(40_000) };
    rows[1] = { ...rows[1]!, description: 'Line one\nline two, "quoted"; semi' };
    rows[2] = { ...rows[2]!, description: 'Pokémon — Café №5 ü ß' };
    const data = { ...base, holdings: rows };
    const written = await writeReport(data, tempDir('odd'), ['xlsx', 'csv', 'json']);
    const files = Object.fromEntries(written.map((w) => [w.format, w.path]));
    const csv = parse(readFileSync(files.csv!), { bom: true, from_line: 2 }) as string[][];
    expect(csv.map((r) => r[2])).toEqual(rows.map((r) => r.description));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(files.xlsx!);
    const ws = wb.getWorksheet('Holdings')!;
    expect(String(ws.getRow(2).getCell(3).value)).toHaveLength(32_767);
    expect(ws.getRow(3).getCell(3).value).toBe(rows[1]!.description);
    expect(ws.getRow(4).getCell(3).value).toBe(rows[2]!.description);
    expect(JSON.parse(readFileSync(files.json!, 'utf8')).holdings[0].description).toHaveLength(40_000);
  });
});
