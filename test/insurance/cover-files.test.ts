/**
 * Cover columns in a workbook and in a JSON holdings file (issue 37): the shared fixture saved as
 * Excel would save it (amounts as numbers, renewal dates as date cells) and as JSON (numbers as
 * numbers) reads the same cover as the CSV.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadHoldings } from '../../src/holdings/load';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/insurance/holdings.csv');

const covers = (r: Awaited<ReturnType<typeof loadHoldings>>) => r.portfolios.flatMap((p) => p.holdings.map((h) => h.cover));
const fixtureRows = () => parse(readFileSync(FIXTURE, 'utf8'), { columns: false, skip_empty_lines: true }) as string[][];

describe('cover columns in an xlsx or JSON holdings file', () => {
  it('amounts as numbers and renewal dates as date cells read as the CSV reads them', async () => {
    const [header, ...rows] = fixtureRows();
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
    expect(covers(fromXlsx)).toEqual(covers(fromCsv));
    // The fixture's cover is there to compare: every status of the review needs insured values.
    expect(covers(fromCsv).filter((c) => c?.insured_value !== undefined).length).toBeGreaterThanOrEqual(5);
  });

  it('a JSON file: one portfolio, its holdings as objects keyed by the same headers, numbers as numbers', async () => {
    const [header, ...rows] = fixtureRows();
    const at = (name: string) => header!.findIndex((h) => h.toLowerCase() === name);
    const holdings = rows.map((row) =>
      Object.fromEntries(
        header!
          .map((h, i) => [h, row[i] === '' ? undefined : /^-?\d+(\.\d+)?$/.test(row[i]!) ? Number(row[i]) : row[i]] as const)
          .filter(([h, v]) => v !== undefined && h.toLowerCase() !== 'portfolio'),
      ),
    );
    const json = join(mkdtempSync(join(tmpdir(), 'cover-json-')), 'holdings.json');
    writeFileSync(json, JSON.stringify({ portfolio: rows[0]![at('portfolio')], holdings }));
    const fromCsv = await loadHoldings([FIXTURE], { asOf: '2026-09-30' });
    const fromJson = await loadHoldings([json], { asOf: '2026-09-30' });
    expect(fromJson.portfolios[0]!.problems).toEqual([]);
    expect(covers(fromJson)).toEqual(covers(fromCsv));
  });
});
