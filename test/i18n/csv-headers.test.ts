/**
 * The CSV's header row (issue 36): in the client's language by default, the machine-stable
 * English keys with `--csv-headers english` (or `csv_headers` in the config) for import pipelines;
 * English documents keep the keys either way. Read back with csv-parse; the values never change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { makeDashboardData, makeReportData } from '../../fixtures/report-data';
import { resolveSettings } from '../../reports/config';
import type { CsvHeaders } from '../../reports/report-data';
import { writeCsvFiles } from '../../reports/writers/csv';
import { writeDashboardCsv } from '../../reports/writers/dashboard-csv';
import type { Language } from '../../src/i18n';
import { runCli, tempDir } from '../reports/helpers';

const dir = tempDir('svc-csv-headers-');
let n = 0;
async function csvOf(language: Language, csvHeaders?: CsvHeaders): Promise<string[][]> {
  const file = join(dir, `${++n}.csv`);
  await writeCsvFiles({ ...makeReportData({ holdings: 3 }), language, ...(csvHeaders ? { csv_headers: csvHeaders } : {}) }, file);
  return parse(readFileSync(file, 'utf8'), { bom: true }) as string[][];
}

describe('the CSV header row', () => {
  it("is in the client's language by default, the keys with english, the values the same", async () => {
    const [de, english, en, enGb] = await Promise.all([csvOf('de'), csvOf('de', 'english'), csvOf('en'), csvOf('en-GB', 'localised')]);
    expect(de[0]).toEqual(expect.arrayContaining(['Beschreibung', 'Währung']));
    expect(de[0]).not.toContain('asset_id');
    expect(english[0]).toEqual(expect.arrayContaining(['asset_id', 'description', 'currency', 'sandbox']));
    // English documents keep the machine-stable keys, whatever the option: an English pipeline sees no change.
    expect(en[0]).toEqual(english[0]);
    expect(enGb[0]).toEqual(english[0]);
    expect(de.slice(1)).toEqual(english.slice(1));
  });

  it("is the dashboard's too", async () => {
    const file = (h?: CsvHeaders) => join(dir, `dash-${h ?? 'default'}.csv`);
    await writeDashboardCsv({ ...makeDashboardData(), language: 'fr' }, file());
    await writeDashboardCsv({ ...makeDashboardData(), language: 'fr', csv_headers: 'english' }, file('english'));
    const header = (f: string) => readFileSync(f, 'utf8').replace(/^\uFEFF/, '').split('\r\n')[0];
    expect(header(file())).toContain('Segment');
    expect(header(file())).not.toContain('segment_name');
    expect(header(file('english'))).toMatch(/^segment,segment_name,/);
  });

  it('is chosen by --csv-headers over csv_headers in the config over the default (localised)', () => {
    const cwd = tempDir('svc-csv-headers-config-');
    const today = new Date('2026-11-21T10:00:00Z');
    expect(resolveSettings({}, {}, cwd, today).csvHeaders).toBe('localised');
    writeFileSync(join(cwd, 'svc-report.config.json'), JSON.stringify({ csv_headers: 'english' }));
    expect(resolveSettings({}, {}, cwd, today).csvHeaders).toBe('english');
    expect(resolveSettings({ csvHeaders: 'localised' }, {}, cwd, today).csvHeaders).toBe('localised');
    writeFileSync(join(cwd, 'svc-report.config.json'), JSON.stringify({ csv_headers: 'German' }));
    expect(() => resolveSettings({}, {}, cwd, today)).toThrow(/csv_headers/);
  });

  it('refuses another style on the command line (exit 2, naming the allowed ones)', async () => {
    const r = await runCli(['run', 'nothing.csv', '--out', join(dir, 'out'), '--csv-headers', 'german']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--csv-headers/);
    expect(r.stderr).toMatch(/localised, english/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
