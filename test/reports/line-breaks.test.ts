import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readText } from '../../addin/src/shared/arguments';
import { readHoldingsGrid } from '../../addin/src/shared/holdings';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/**
 * A name typed on two lines (Alt+Enter in Excel) or with a tab pasted in is formatting, not
 * data: the holding is valued and its description is on one line, on every path. Notes keep
 * their lines. A NUL or an ESC is still refused, by row and field.
 */
const HEADER = ['portfolio', 'segment', 'brand', 'producer', 'artist', 'model', 'title', 'reference', 'year', 'size', 'purchase_price', 'purchase_date', 'currency', 'notes'];
const GOOD: (string | number)[][] = [
  ['Hartley\nFamily', 'watches', 'Patek\r\nPhilippe', '', '', 'Nautilus\t', '', '5711/1A\n', 2019, '', 95000, '2020-03-02', 'USD', 'Bought at auction\nbox and papers'],
  ['Hartley\nFamily', 'watches', 'Rolex', '', '', 'Submariner\n\nDate', '', '126610LN', 2021, '', 12000, '2021-06-01', 'USD', ''],
  ['Hartley\tFamily', 'wine', '', 'Château\nMargaux', '', 'Grand\tVin', '', '', 2015, ' 75cl\t', 9000, '2019-05-01', 'USD', ''],
  ['Hartley Family', 'art', '', '', 'Andy\r\nWarhol', '', 'Marilyn\n(1967)', '', 1967, '', 250000, '2018-01-15', 'USD', ''],
];
const BAD: (string | number)[][] = [
  ['Hartley Family', 'watches', 'Rolex', '', '', 'Day\u0000tona', '', '116500LN', 2020, '', 30000, '2020-01-01', 'USD', ''],
  ['Hartley Family', 'watches', '\u001b[31mOmega', '', '', 'Speedmaster', '', '310.30', 2020, '', 7000, '2020-01-01', 'USD', ''],
];
const ROWS = [...GOOD, ...BAD];

const csvCell = (v: string | number) => (typeof v === 'number' ? String(v) : `"${v.replace(/"/g, '""')}"`);
const csv = [HEADER, ...ROWS].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir();
});
afterAll(() => sb?.close());

interface JsonReport {
  portfolio: { name: string };
  holdings: { row: number; description: string; segment: string }[];
  errors: { row: number | null; field: string; message: string }[];
}

async function run(file: string, out: string, exitCode: number): Promise<JsonReport> {
  const r = await runCli(['run', file, '--out', join(dir, out), '--formats', 'json', '--as-of', '2026-10-31'], serviceEnv(sb));
  expect(r.stderr).not.toMatch(/unexpected error|at .*\.ts:\d+/);
  // 3: rows were refused (the exit code says so, after the report is written).
  expect([r.code, r.stderr]).toEqual([exitCode, expect.any(String)]);
  const files = r.stdout.trim().split('\n');
  expect(files).toHaveLength(1);
  return JSON.parse(readFileSync(files[0]!, 'utf8')) as JsonReport;
}

/** `first`: the first holding's row number (2 in a table under its header, 1 in a JSON list). */
function expectAllValuedOnOneLine(report: JsonReport, refusedRows = true, first = 2) {
  expect(report.portfolio.name).toBe('Hartley Family');
  expect(report.holdings.map((h) => h.row - first).sort()).toEqual([0, 1, 2, 3]);
  for (const h of report.holdings) expect(h.description).not.toMatch(/[\t\r\n]|\s{2}/);
  const descriptions = report.holdings.map((h) => h.description).join(' | ');
  for (const name of ['Patek Philippe', 'Nautilus', 'Submariner Date', 'Château Margaux', 'Grand Vin', 'Andy Warhol', 'Marilyn (1967)']) expect(descriptions).toContain(name);
  const refused = report.errors.map((e) => [e.row, e.field]);
  if (!refusedRows) return expect(refused).toEqual([]);
  expect(refused).toEqual([
    [first + 4, 'model'],
    [first + 5, 'brand'],
  ]);
  expect(report.errors[0]!.message).toMatch(/model must not contain control characters \(U\+0000 at character 4\)/);
  expect(report.errors[1]!.message).toMatch(/brand must not contain control characters \(U\+001B at character 1\)/);
}

describe('line breaks and tabs in descriptive fields', () => {
  it('csv: every holding valued, descriptions single-line; NUL and ESC refused by row and field', async () => {
    const file = join(dir, 'hartley.csv');
    writeFileSync(file, csv);
    expectAllValuedOnOneLine(await run(file, 'csv-out', 3));
  });

  it('json: the same, from strings with \\n and \\t in them', async () => {
    const holdings = ROWS.map((r) => Object.fromEntries(HEADER.map((h, i) => [h, r[i]]).filter(([h, v]) => v !== '' && h !== 'portfolio')));
    const file = join(dir, 'hartley.json');
    writeFileSync(file, JSON.stringify({ portfolio: 'Hartley\nFamily', holdings }));
    expectAllValuedOnOneLine(await run(file, 'json-out', 3), true, 1);
  });

  // An xlsx cannot carry a NUL or an ESC (XML 1.0 has no way to write them): the good rows only.
  it('xlsx: the same, from cells typed with Alt+Enter', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Holdings');
    ws.addRow(HEADER);
    for (const r of GOOD) ws.addRow(r.map((v) => (v === '' ? null : v)));
    const file = join(dir, 'hartley.xlsx');
    await wb.xlsx.writeFile(file);
    expectAllValuedOnOneLine(await run(file, 'xlsx-out', 0), false);
  });

  it("the add-in's grid: the same rows read as holdings, names on one line, notes keep their lines", () => {
    const grid = [HEADER, ...ROWS.map((r) => r.map((v) => (v === '' ? null : v)))];
    const { rows } = readHoldingsGrid(grid, { sheet: 'Holdings', purpose: 'report' });
    const holdings = rows.flatMap((r) => ('holding' in r ? [r.holding] : []));
    expect(holdings.map((h) => [h.portfolio, h.brand, h.model])).toEqual([
      ['Holdings', 'Patek Philippe', 'Nautilus'],
      ['Holdings', 'Rolex', 'Submariner Date'],
      ['Holdings', 'Château Margaux', 'Grand Vin'],
      ['Holdings', 'Andy Warhol', 'Marilyn (1967)'],
    ]);
    expect(holdings[0]!.reference).toBe('5711/1A');
    expect(holdings[2]!.size).toBe('75cl');
    expect(holdings[0]!.notes).toBe('Bought at auction\nbox and papers');
    const refused = rows.flatMap((r) => ('problems' in r ? r.problems.map((p) => [p.row, p.field]) : []));
    expect(refused).toEqual([
      [6, 'model'],
      [7, 'brand'],
    ]);
  });

  it("a custom function's text argument from a cell typed on two lines is one line", () => {
    expect(readText('model', 'Submariner\r\nDate\t ')).toBe('Submariner Date');
    expect(readText('brand', '  Patek\n\nPhilippe')).toBe('Patek Philippe');
  });
});
