/**
 * 100,000 bad rows (issue 17): every writer keeps the error list complete where the report
 * promises it (the JSON and the xlsx Errors sheet have them all; the PDF lists the first
 * PDF_MAX_ERRORS and counts the rest) without building one large string or copy of it: the JSON
 * streams its errors like its holdings, and the PDF embeds the JSON and CSV files written just
 * before rather than writing them again. Read back with qpdf, pdftotext and openpyxl.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportData, ReportError } from '../../reports/report-data';
import { writeReport } from '../../reports/writers';
import { reportDocumentHead } from '../../reports/writers/json-document';
import { PDF_MAX_ERRORS } from '../../reports/writers/pdf';
import { makeReportData } from '../../fixtures/report-data';
import { pdfText, tempDir } from './tools';

const run = promisify(execFile);
const ERRORS = 20_000;

const errors: ReportError[] = Array.from({ length: ERRORS }, (_, i) => ({
  portfolio: 'Whitcombe',
  row: i + 2,
  field: 'purchase_price',
  message: `purchase_price must be a number of 0 or more, such as 12500 (found "n/a ${i}"). [bad.csv]`,
}));

describe(`a report with ${ERRORS.toLocaleString('en')} errors`, () => {
  const dir = tempDir('many-errors');
  const base = makeReportData({ holdings: 5, errors: 0 });
  const data: ReportData = { ...base, errors };
  const file = (ext: string) => path.join(dir, `whitcombe-2026-10-31.${ext}`);

  beforeAll(async () => {
    const written = await writeReport({ ...data, cover: { ...data.cover, portfolio_name: 'Whitcombe' } }, dir, ['xlsx', 'csv', 'json', 'pdf']);
    expect(written.map((w) => path.basename(w.path))).toEqual(['xlsx', 'csv', 'json', 'pdf'].map((e) => path.basename(file(e))));
  }, 300_000);

  it('JSON: every error, in order, streamed one per line rather than inside the stringified head', () => {
    expect(reportDocumentHead(data).errors).toEqual([]);
    const text = readFileSync(file('json'), 'utf8');
    const doc = JSON.parse(text) as { errors: ReportError[]; holdings: unknown[] };
    expect(doc.errors).toEqual(errors);
    expect(doc.holdings).toHaveLength(5);
    expect(text).toContain(`\n    ${JSON.stringify(errors[ERRORS - 1])}\n  ]`);
  });

  it('PDF: embeds the JSON and CSV byte for byte as written beside it', async () => {
    for (const ext of ['json', 'csv']) {
      const { stdout } = await run('qpdf', [`--show-attachment=whitcombe-2026-10-31.${ext}`, file('pdf')], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
      expect(stdout.equals(readFileSync(file(ext)))).toBe(true);
    }
  });

  it('PDF: lists the first errors and counts the rest', async () => {
    const text = await pdfText(file('pdf'));
    expect(text).toContain('n/a 0');
    expect(text).toContain(`n/a ${PDF_MAX_ERRORS - 1}"`);
    expect(text).not.toContain(`n/a ${PDF_MAX_ERRORS}"`);
    expect(text.replace(/\s+/g, ' ')).toContain(`…and ${(ERRORS - PDF_MAX_ERRORS).toLocaleString('en')} more rows not valued (${ERRORS.toLocaleString('en')} in all)`);
  });

  it('xlsx: the Errors sheet has every one (openpyxl)', async () => {
    const script = 'import openpyxl,sys\nws=openpyxl.load_workbook(sys.argv[1],read_only=True)["Errors"]\nrows=[r for r in ws.iter_rows(values_only=True) if isinstance(r[0],int)]\nprint(len(rows),rows[0][0],rows[-1][0],rows[-1][2])';
    const { stdout } = await run('/usr/bin/python3', ['-c', script, file('xlsx')], { maxBuffer: 16 * 1024 * 1024 });
    expect(stdout.trim()).toBe(`${ERRORS} 2 ${ERRORS + 1} ${errors[ERRORS - 1]!.message}`);
  }, 120_000);
});
