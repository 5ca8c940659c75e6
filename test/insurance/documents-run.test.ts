/**
 * The insurance review in the client documents of a real month-end (issue 37): `svc-report run`
 * on the shared fixture (test/fixtures/insurance) against the sandbox, writing JSON, PDF and xlsx.
 * Expected figures are computed here from the JSON's own valuations (each holding's current_value
 * and value_high) and the fixture's cover cells with the rates file, never from src/insurance:
 * - PDF (pdftotext -layout): each item's row, the totals per status and the total shortfall, the
 *   renewal within 60 days; PDF/A-3a and PDF/UA-1 as every report.
 * - xlsx: every formula's cached result blanked, LibreOffice recomputes (set to recompute on
 *   loading), openpyxl reads gaps, statuses and totals equal to the JSON's and to the computation;
 *   a copy with the tolerance cell changed recomputes to the statuses of that tolerance.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';
import { libreOfficeConvert, pdfText } from '../report-writers/tools';
import { readStructure } from '../report-writers/pdf-structure';
import { expectArchivalAndTagged } from '../report-writers/pdf-archival';
import { expectedReview, itemRow, plain, STATUS_WORD, STATUSES, totalsLines, wholeMoney as usd, type ExpectedReview, type ValuedHolding } from './documents-expected';

const execute = promisify(execFile);
const FIXTURE = join(ROOT, 'test/fixtures/insurance/holdings.csv');
const RATES = join(ROOT, 'examples/fx-rates-ILLUSTRATIVE.csv');
const AS_OF = '2026-09-30';
const REPORT = 'ashcombe-collection-2026-09-30';
/** Debian's python3 with python3-openpyxl (a pyenv python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';

const cells: Record<string, string>[] = parse(readFileSync(FIXTURE, 'utf8'), { columns: true });

/** Units of a currency per EUR on the newest date on or before the as-of date (the ECB layout: rates per EUR). */
function perEur(currency: string): number {
  const table: Record<string, string>[] = parse(readFileSync(RATES, 'utf8'), { columns: true, comment: '#', relax_column_count: true });
  const day = table.filter((r) => r.Date! <= AS_OF).sort((a, b) => b.Date!.localeCompare(a.Date!))[0]!;
  return currency === 'EUR' ? 1 : Number(day[currency]);
}

/** The fixture's insured value of a holding (by its row) in USD, the report's currency. */
function insuredUsd(h: ValuedHolding): number | null {
  const row = cells[h.row - 2]!;
  if (!row['Insured Value']) return null;
  const currency = row['Insured Currency'] || row.Currency!;
  return (Number(row['Insured Value']) / perEur(currency)) * perEur('USD');
}

const close = (a: unknown, b: number) => expect(Math.abs(Number(a) - b), `${a} vs ${b}`).toBeLessThan(0.005);

/** A copy of a book with every formula's cached result removed, and optionally one cell's value replaced. */
const BLANK_RESULTS = `
import re, sys, zipfile
src, dst, cell, value = sys.argv[1:5]
zin = zipfile.ZipFile(src)
with zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if info.filename.startswith('xl/worksheets/sheet'):
            xml = re.sub(r'(<f>[^<]*</f>)<v>[^<]*</v>', r'\\1', data.decode('utf-8'))
            if cell:
                xml = re.sub(r'(<c r="%s"[^>]*>)<v>[^<]*</v>' % cell, r'\\g<1><v>%s</v>' % value, xml)
            data = xml.encode('utf-8')
        zout.writestr(info, data)
`;

/** The Insurance sheet's rows as values (LibreOffice's results) and which of the written book's cells are formulas. */
const READ_SHEET = `
import json, sys, openpyxl
values = openpyxl.load_workbook(sys.argv[1], data_only=True)
formulas = openpyxl.load_workbook(sys.argv[2])
ws = values['Insurance']
print(json.dumps({
  'sheets': values.sheetnames,
  'rows': [[c if not hasattr(c, 'isoformat') else c.isoformat() for c in r] for r in ws.iter_rows(values_only=True)],
  'formulas': [[isinstance(c.value, str) and c.value.startswith('=') for c in r] for r in formulas['Insurance'].iter_rows()],
}))
`;

interface Sheet {
  sheets: string[];
  rows: (string | number | null)[][];
  formulas: boolean[][];
}

interface JsonItem {
  row: number;
  asset_id: string;
  insured_value: number | null;
  replacement_value: number;
  gap: number | null;
  status: keyof typeof STATUS_WORD;
  insurer: string | null;
  policy: string | null;
  renewal_date: string | null;
}

interface JsonReport {
  holdings: (ValuedHolding & { description: string })[];
  insurance: { tolerance: number; items: JsonItem[]; totals: { by_status: Record<string, { count: number; insured_value: number; replacement_value: number }>; total_shortfall: number }; renewals: JsonItem[] };
}

let sb: TestSandbox;
const dir = tempDir('insurance-documents-');
let json: JsonReport;
let expected: ExpectedReview;
let layout: string[];
let asWritten: Sheet;
let stricter: Sheet;
let pdfFile: string;
/** The stricter tolerance the copy of the book is given: it must turn a covered item under-insured. */
const STRICT = 0.02;

beforeAll(async () => {
  expect(existsSync(PYTHON), `${PYTHON} with python3-openpyxl is needed`).toBe(true);
  sb = await testSandbox();
  const out = join(dir, 'out');
  const r = await runCli(['run', FIXTURE, '--out', out, '--formats', 'json,pdf,xlsx', '--as-of', AS_OF, '--fx-rates', RATES, '--db', 'off'], { ...serviceEnv(sb), XDG_DATA_HOME: dir });
  expect(r.code, r.stderr).toBe(0);
  json = JSON.parse(readFileSync(join(out, `${REPORT}.json`), 'utf8'));
  expected = expectedReview(json.holdings, insuredUsd);
  pdfFile = join(out, `${REPORT}.pdf`);
  layout = (await pdfText(pdfFile, true)).split('\n').map(plain);
  // The tolerance cell: column C of the parameters' second row, below the items (from row 2) and a blank row.
  const book = join(out, `${REPORT}.xlsx`);
  const copies = [join(dir, 'as-written.xlsx'), join(dir, 'stricter.xlsx')];
  await execute(PYTHON, ['-c', BLANK_RESULTS, book, copies[0]!, '', '']);
  await execute(PYTHON, ['-c', BLANK_RESULTS, book, copies[1]!, `C${json.insurance.items.length + 4}`, String(STRICT)]);
  const converted = await libreOfficeConvert(copies, 'xlsx', join(dir, 'lo'), { recalculate: true });
  const read = async (p: string) => JSON.parse((await execute(PYTHON, ['-c', READ_SHEET, p, book])).stdout) as Sheet;
  [asWritten, stricter] = await Promise.all([read(converted.paths[0]!), read(converted.paths[1]!)]);
}, 300_000);

afterAll(async () => {
  await sb?.close();
});

describe('the PDF of a month-end with cover', () => {
  it("prints each item's insured value, mid, high, replacement value, gap and status as computed from the JSON's valuations and the fixture", () => {
    expect(new Set(expected.items.map((i) => i.status)).size).toBe(4);
    for (const item of expected.items) expect(layout.filter((l) => itemRow(item).test(l)), item.asset_id).toHaveLength(1);
  });

  it('prints the totals per status and the total shortfall', () => {
    for (const line of totalsLines(expected)) expect(layout.some((l) => l.trim() === line), line).toBe(true);
    expect(layout.join(' ')).toContain(`Total shortfall of the under-insured items: ${usd(expected.shortfall)} (${expected.byStatus['under-insured'].count} items).`);
  });

  it('names the policy renewing within 60 days, with its insurer and date', () => {
    const soon = cells.filter((c) => c['Renewal Date'] && (Date.parse(c['Renewal Date']) - Date.parse(AS_OF)) / 86_400_000 <= 60);
    expect(soon).toHaveLength(1);
    const date = plain(new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${soon[0]!['Renewal Date']}T00:00:00Z`)));
    const renewals = layout.slice(layout.findIndex((l) => l.includes('RENEWALS WITHIN 60 DAYS')));
    expect(renewals.some((l) => new RegExp(`${soon[0]!.Insurer} ${soon[0]!.Policy} .* ${date}`).test(l))).toBe(true);
  });

  it('stays PDF/A-3a and PDF/UA-1', async () => {
    expectArchivalAndTagged(await readStructure(pdfFile), 'en-GB');
  });
});

describe('the xlsx Insurance sheet of a month-end with cover, recomputed by LibreOffice', () => {
  const items = (s: Sheet) => s.rows.slice(1, 1 + json.insurance.items.length);
  const totalsAt = (s: Sheet) => s.rows.findIndex((r) => r[0] === 'Total');

  it('follows the Holdings sheet, its gap, status and totals formulas', () => {
    expect(asWritten.sheets.indexOf('Insurance')).toBe(asWritten.sheets.indexOf('Holdings') + 1);
    for (const [k] of json.insurance.items.entries()) expect(asWritten.formulas[k + 1]!.slice(6, 8)).toEqual([true, true]);
    const t = totalsAt(asWritten);
    for (let r = t - STATUSES.length; r <= t; r++) expect(asWritten.formulas[r]!.slice(1, 4)).toEqual([true, true, true]);
    expect(asWritten.formulas[t + 1]![3]).toBe(true);
  });

  it("recomputes each item's gap and status equal to the JSON's and to the computation", () => {
    for (const [k, row] of items(asWritten).entries()) {
      const item = json.insurance.items[k]!;
      const mine = expected.items.find((i) => i.asset_id === item.asset_id)!;
      expect(row[0]).toBe(item.asset_id);
      expect([row[7], row[7]]).toEqual([STATUS_WORD[item.status], STATUS_WORD[mine.status]]);
      if (item.gap === null) expect([row[6], mine.gap]).toEqual([null, null]);
      else {
        close(row[6], item.gap);
        close(row[6], mine.gap!);
      }
    }
  });

  it("recomputes the totals per status and the total shortfall equal to the JSON's and to the computation", () => {
    const rows = asWritten.rows;
    const t = totalsAt(asWritten);
    for (const [k, s] of STATUSES.entries()) {
      const row = rows[t - STATUSES.length + k]!;
      expect([row[0], row[1], row[1]]).toEqual([STATUS_WORD[s], json.insurance.totals.by_status[s]!.count, expected.byStatus[s].count]);
      close(row[2], json.insurance.totals.by_status[s]!.insured_value);
      close(row[2], expected.byStatus[s].insured);
      close(row[3], expected.byStatus[s].replacement);
    }
    close(rows[t + 1]![3], json.insurance.totals.total_shortfall);
    close(rows[t + 1]![3], expected.shortfall);
  });

  it('recomputes to the statuses and shortfall of a tolerance typed into its cell', () => {
    const strict = expectedReview(json.holdings, insuredUsd, { tolerance: STRICT });
    expect(strict.byStatus['under-insured'].count, 'the stricter tolerance changes a status').toBeGreaterThan(expected.byStatus['under-insured'].count);
    for (const row of items(stricter)) expect(row[7], String(row[0])).toBe(STATUS_WORD[strict.items.find((i) => i.asset_id === row[0])!.status]);
    close(stricter.rows[totalsAt(stricter) + 1]![3], strict.shortfall);
  });
});
