/**
 * Cover columns in a workbook (issue 37): the shared fixture saved as Excel would save it — amounts
 * as numbers, renewal dates as date cells — reads the same cover as the CSV.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadHoldings } from '../../src/holdings/load';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/insurance/holdings.csv');

describe('cover columns in an xlsx holdings file', () => {
  it('amounts as numbers and renewal dates as date cells read as the CSV reads them', async () => {
    const [header, ...rows] = parse(readFileSync(FIXTURE, 'utf8'), { columns: false, skip_empty_lines: true }) as string[][];
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Holdings');
    sheet.addRow(header!);
    const dateColumns = new Set(header!.map((h, i) => (/date/i.test(h) ? i : -1)).filter((i) => i >= 0));
    for (const row of rows) {
      sheet.addRow(
        row.map((cell, i) => {
          if (cell === '') return null;
          if (dateColumns.has(i) && /^\d{4}-\d{2}-\d{2}$/.test(cell)) return new Date(`${cell}T00:00:00Z`);
          return /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell;
        }),
      );
    }
    const xlsx = join(mkdtempSync(join(tmpdir(), 'cover-xlsx-')), 'holdings.xlsx');
    await book.xlsx.writeFile(xlsx);

    const fromCsv = await loadHoldings([FIXTURE], { asOf: '2026-09-30' });
    const fromXlsx = await loadHoldings([xlsx], { asOf: '2026-09-30' });
    expect(fromXlsx.portfolios[0]!.problems).toEqual([]);
    const covers = (r: typeof fromCsv) => r.portfolios.flatMap((p) => p.holdings.map((h) => h.cover));
    expect(covers(fromXlsx)).toEqual(covers(fromCsv));
    // The fixture's cover is there to compare: every status of the review needs insured values.
    expect(covers(fromCsv).filter((c) => c?.insured_value !== undefined).length).toBeGreaterThanOrEqual(5);
  });
});
