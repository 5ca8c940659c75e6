/**
 * The workbook's Insurance sheet (issue 37): its gap, status and totals are formulas over its own
 * cells. Every cached result is blanked before LibreOffice opens the book (set to recompute on
 * loading), so what openpyxl reads back is LibreOffice's arithmetic: it must equal the review in
 * the report data and a computation made here from the valuations and the cover; with the
 * tolerance cell changed, the statuses follow the new tolerance. No sheet without a review.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportData } from '../../reports/report-data';
import { writeXlsx } from '../../reports/writers/xlsx';
import { libreOfficeConvert, tempDir } from '../report-writers/tools';
import { reportWithReview } from './documents-data';
import { expectedReview, STATUSES, type ExpectedReview } from './documents-expected';

const run = promisify(execFile);
/** Debian's python3 with python3-openpyxl (a pyenv python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';

/** A copy of the book with every formula's cached result removed, and optionally one cell's value replaced. */
const BLANK_RESULTS = `
import re, sys, zipfile
src, dst, cell, value = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
zin = zipfile.ZipFile(src)
with zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if info.filename.startswith('xl/worksheets/sheet'):
            xml = data.decode('utf-8')
            xml = re.sub(r'(<f>[^<]*</f>)<v>[^<]*</v>', r'\\1', xml)
            if cell:
                xml = re.sub(r'(<c r="%s"[^>]*>)<v>[^<]*</v>' % cell, r'\\g<1><v>%s</v>' % value, xml)
            data = xml.encode('utf-8')
        zout.writestr(info, data)
`;

/** The Insurance sheet's rows as values (LibreOffice's results), and which cells hold formulas. */
const READ_SHEET = `
import json, sys, openpyxl
values = openpyxl.load_workbook(sys.argv[1], data_only=True)
formulas = openpyxl.load_workbook(sys.argv[2])
name = sys.argv[3]
out = {'sheets': values.sheetnames}
if name in values.sheetnames:
    out['rows'] = [[c if not hasattr(c, 'isoformat') else c.isoformat() for c in r] for r in values[name].iter_rows(values_only=True)]
    out['formulas'] = [[isinstance(c.value, str) and c.value.startswith('=') for c in r] for r in formulas[name].iter_rows()]
print(json.dumps(out))
`;

interface Sheet {
  sheets: string[];
  rows?: (string | number | null)[][];
  formulas?: boolean[][];
}

/**
 * LibreOffice's results for the book as written and for a copy with one cell changed (one start
 * of LibreOffice for both): every cached result is blanked first.
 */
async function recomputed(book: string, dir: string, sheetName: string, change: { cell: string; value: number }): Promise<[Sheet, Sheet]> {
  const copies = [path.join(dir, 'as-written.xlsx'), path.join(dir, 'changed.xlsx')];
  await run(PYTHON, ['-c', BLANK_RESULTS, book, copies[0]!, '', '']);
  await run(PYTHON, ['-c', BLANK_RESULTS, book, copies[1]!, change.cell, String(change.value)]);
  const converted = await libreOfficeConvert(copies, 'xlsx', path.join(dir, 'lo'), { recalculate: true });
  return Promise.all(converted.paths.map(async (p) => JSON.parse((await run(PYTHON, ['-c', READ_SHEET, p, book, sheetName])).stdout) as Sheet)) as Promise<[Sheet, Sheet]>;
}

const close = (a: unknown, b: number) => expect(Math.abs(Number(a) - b), `${a} vs ${b}`).toBeLessThan(0.005);

describe('xlsx Insurance sheet, recomputed by LibreOffice', () => {
  const report = reportWithReview('en');
  const data = report.data;
  const review = data.insurance!;
  const insuredOf = (id: string) => report.inputs.find((i) => i.asset_id === id)!.insured_value;
  const dir = tempDir('insurance-xlsx');
  const STATUS_WORD = { 'under-insured': 'Under-insured', 'over-insured': 'Over-insured', covered: 'Covered', 'not-insured': 'Not insured' } as const;
  let asWritten: Sheet;
  let stricter: Sheet;
  let without: Sheet;
  let expected: ExpectedReview;
  /** The tolerance cell: C of the second row of the parameters, below the items and a blank row. */
  const toleranceRow = review.items.length + 4;

  beforeAll(async () => {
    expect(existsSync(PYTHON), `${PYTHON} with python3-openpyxl is needed`).toBe(true);
    expected = expectedReview(data, insuredOf);
    const book = path.join(dir, 'report.xlsx');
    const bare = path.join(dir, 'without.xlsx');
    const { insurance: _, ...rest } = data;
    await Promise.all([writeXlsx(data, book), writeXlsx(rest as ReportData, bare)]);
    [[asWritten, stricter], without] = await Promise.all([
      recomputed(book, dir, 'Insurance', { cell: `C${toleranceRow}`, value: 0.02 }),
      run(PYTHON, ['-c', READ_SHEET, bare, bare, 'Insurance']).then(({ stdout }) => JSON.parse(stdout) as Sheet),
    ]);
  }, 240_000);

  const itemRows = (s: Sheet) => s.rows!.slice(1, 1 + review.items.length);

  it('is named Insurance, after Holdings, and holds the tolerance where the formulas read it', () => {
    expect(asWritten.sheets.indexOf('Insurance')).toBe(asWritten.sheets.indexOf('Holdings') + 1);
    expect(asWritten.rows![toleranceRow - 1]![2]).toBe(0.1);
  });

  it('has formulas for the gap, the status and every total', () => {
    const f = asWritten.formulas!;
    for (let r = 1; r <= review.items.length; r++) expect([f[r]![6], f[r]![7]], `row ${r + 1}`).toEqual([true, true]);
    const totals = asWritten.rows!.findIndex((r) => r[0] === 'Total');
    for (let r = totals - STATUSES.length; r <= totals; r++) expect([f[r]![1], f[r]![2], f[r]![3]], `row ${r + 1}`).toEqual([true, true, true]);
    expect(f[totals + 1]![3]).toBe(true);
  });

  it("recomputes each item's gap and status equal to the report's review and to the computation from the valuations", () => {
    const rows = itemRows(asWritten);
    expect(rows.map((r) => r[0])).toEqual(review.items.map((i) => i.asset_id));
    for (const [k, row] of rows.entries()) {
      const item = review.items[k]!;
      const mine = expected.items.find((i) => i.asset_id === item.asset_id)!;
      expect(row[7], item.asset_id).toBe(STATUS_WORD[item.status]);
      expect(row[7], item.asset_id).toBe(STATUS_WORD[mine.status]);
      if (item.gap === null) expect([row[2], row[6]]).toEqual([null, null]);
      else {
        close(row[6], item.gap);
        close(row[6], mine.gap!);
      }
      close(row[5], mine.replacement);
    }
  });

  it('recomputes the totals per status, the grand totals and the total shortfall', () => {
    const rows = asWritten.rows!;
    const totals = rows.findIndex((r) => r[0] === 'Total');
    for (const [k, s] of STATUSES.entries()) {
      const row = rows[totals - STATUSES.length + k]!;
      expect(row[0]).toBe(STATUS_WORD[s]);
      expect(row[1]).toBe(expected.byStatus[s].count);
      close(row[2], expected.byStatus[s].insured);
      close(row[3], expected.byStatus[s].replacement);
      close(row[3], review.totals.by_status[s].replacement_value);
    }
    expect(rows[totals]![1]).toBe(review.items.length);
    close(rows[totals]![2], expected.insured);
    close(rows[totals]![3], expected.replacement);
    close(rows[totals + 1]![3], expected.shortfall);
    close(rows[totals + 1]![3], review.totals.total_shortfall);
  });

  it('follows a changed tolerance: the statuses and the shortfall become those of the new tolerance', () => {
    const strict = expectedReview(data, insuredOf, { tolerance: 0.02 });
    // The stricter tolerance must change something, or the check proves nothing.
    expect(strict.byStatus['under-insured'].count).toBeGreaterThan(expected.byStatus['under-insured'].count);
    for (const row of itemRows(stricter)) expect(row[7], String(row[0])).toBe(STATUS_WORD[strict.items.find((i) => i.asset_id === row[0])!.status]);
    const totals = stricter.rows!.findIndex((r) => r[0] === 'Total');
    close(stricter.rows![totals + 1]![3], strict.shortfall);
  });

  it('is not in a workbook without a review', () => {
    expect(without.sheets).not.toContain('Insurance');
    expect(without.sheets).toContain('Holdings');
  });
});
