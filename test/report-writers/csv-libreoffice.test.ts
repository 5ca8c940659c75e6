/**
 * Issue 27: the CSV opens with LibreOffice's *default* import as UTF-8 (no import options), so
 * "Hermès" is not "HermÃ¨s". Converted headless to xlsx with no --infilter, read back with openpyxl.
 * LibreOffice 7.4 (Debian 12's own) ignores the BOM and reads Latin-1; 25.2 (bookworm-backports,
 * which .ci/run installs) detects UTF-8: docs/decisions.md, "CSV encoding and LibreOffice".
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeCsv } from '../../reports/writers/csv';
import type { ReportData } from '../../reports/report-data';
import { makeReportData } from '../../fixtures/report-data';
import { libreOfficeConvert, tempDir } from './tools';

const run = promisify(execFile);

/** Descriptions in several scripts: accents (Latin-1 range and beyond), CJK, Cyrillic, a dash. */
const NAMES = ['Hermès Birkin 30 Togo', 'Panthère de Cartier — bracelet', '山田家の掛け軸', 'Фаберже яйцо', 'Château d’Yquem 2001'];

function withNames(data: ReportData): ReportData {
  const holdings = [...data.holdings].map((h, i) => (i < NAMES.length ? { ...h, description: NAMES[i]! } : h));
  return { ...data, holdings };
}

describe('CSV in LibreOffice with its default import', () => {
  it('reads every description as written (UTF-8), including Hermès', async () => {
    const dir = tempDir('csv-lo');
    const file = path.join(dir, 'hermes-report.csv');
    await writeCsv(withNames(makeReportData({ holdings: 8 })), file);
    const converted = await libreOfficeConvert(file, 'xlsx', dir);
    const script = [
      'import json, sys, openpyxl',
      'ws = openpyxl.load_workbook(sys.argv[1]).active',
      'rows = [[c.value for c in r] for r in ws.iter_rows()]',
      'print(json.dumps(rows, default=str))',
    ].join('\n');
    const { stdout } = await run('/usr/bin/python3', ['-c', script, converted.path]);
    const rows = JSON.parse(stdout) as (string | number | null)[][];
    const header = rows[0]!;
    // The header's first cell is the bare column name: a BOM read as text would prefix it.
    expect(header[0]).toBe('row');
    const column = header.indexOf('description');
    expect(column).toBeGreaterThan(-1);
    expect(rows.slice(1, 1 + NAMES.length).map((r) => r[column])).toEqual(NAMES);
  }, 120_000);
});
