/**
 * Issue 16 through the real command: what the client reads. Tier, scope and HTTP detail stay with
 * the analyst; the consolidated report is the firm's internal one (its own cover and footer, a
 * Portfolio column everywhere, xlsx read with openpyxl); every section shows one valuation per holding.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvFile, pdfText, readJson, runCli, serviceEnv, tempDir, testSandbox, watchRows, type TestSandbox } from './helpers';

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-client-docs-');
});
afterAll(async () => {
  await sb?.close();
});

/** Debian's python3 with python3-openpyxl (a pyenv python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';

/** Every sheet as rows of cell values, read by openpyxl (an independent reader). */
function openpyxlSheets(file: string): Record<string, unknown[][]> {
  const script = [
    'import json, sys, openpyxl',
    'wb = openpyxl.load_workbook(sys.argv[1], read_only=True)',
    'print(json.dumps({ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb.worksheets}, default=str))',
  ].join('\n');
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}

/** The footer of every sheet, as openpyxl reads it. */
function openpyxlFooters(file: string): string[] {
  const script = ['import json, sys, openpyxl', 'wb = openpyxl.load_workbook(sys.argv[1])', 'print(json.dumps([ws.oddFooter.left.text or "" for ws in wb.worksheets]))'].join('\n');
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' }));
}

describe('client documents speak to the client', () => {
  it('a starter-tier client PDF says plainly what is left out; tier, scope and HTTP status go to stderr, the Errors sheet and the JSON', async () => {
    const file = join(dir, 'starter-client.csv');
    writeFileSync(file, csvFile(watchRows(4)));
    const out = join(dir, 'starter-out');
    const r = await runCli(['run', file, '--out', out, '--as-of', '2026-10-31'], serviceEnv(sb, 'demo-starter'));
    expect(r.code).toBe(0);
    const pdf = pdfText(join(out, 'starter-client-2026-10-31.pdf'));
    expect(pdf).toMatch(/Exit analysis is not part of this report\./);
    expect(pdf).not.toMatch(/\b403\b|\btier\b|\bscope\b|Forbidden/i);
    // The analyst still learns why, in three places.
    expect(r.stderr).toMatch(/starter-client: Exit analysis: .*tier.*403/);
    const json = readJson(join(out, 'starter-client-2026-10-31.json'));
    expect(json.analyst_notes.join('\n')).toMatch(/403 Forbidden for the exit scope/);
    const errorsSheet = openpyxlSheets(join(out, 'starter-client-2026-10-31.xlsx')).Errors!;
    expect(errorsSheet.flat().join('\n')).toMatch(/403 Forbidden for the exit scope/);
  });

  it('the consolidated report is an internal firm report: internal cover and footer, a Portfolio column in every table and sheet, one row per asset in the largest-holdings tables', async () => {
    const a = join(dir, 'okafor-household.csv');
    const b = join(dir, 'lindqvist-trust.csv');
    // The same watch in both portfolios: the consolidated projections and exits show it once.
    writeFileSync(a, csvFile(watchRows(6)));
    writeFileSync(b, csvFile(watchRows(3)));
    const out = join(dir, 'consolidated-out');
    const r = await runCli(['run', a, b, '--out', out, '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.code).toBe(0);

    const pdf = pdfText(join(out, 'consolidated-2026-10-31.pdf'));
    expect(pdf).toMatch(/INTERNAL FIRM REPORT — NOT FOR CLIENTS/);
    expect(pdf).toMatch(/Consolidated across 2 portfolios/);
    expect(pdf).not.toMatch(/Prepared for/);
    expect(pdf).not.toMatch(/prepared for the named client only/);
    expect(pdf).toMatch(/INTERNAL, not for clients/); // running footer
    expect(pdf).toMatch(/Portfolio/);
    expect(pdf).toMatch(/okafor-household/);

    const sheets = openpyxlSheets(join(out, 'consolidated-2026-10-31.xlsx'));
    expect(String(sheets.Summary![0]![0])).toMatch(/^Internal consolidated report/);
    for (const name of ['Holdings', 'Projections', 'Exit analysis', 'Errors']) expect(sheets[name]![0]![0], name).toBe('Portfolio');
    expect(new Set(sheets.Holdings!.slice(1).map((row) => row[0]))).toEqual(new Set(['okafor-household', 'lindqvist-trust']));
    expect(openpyxlFooters(join(out, 'consolidated-2026-10-31.xlsx')).every((f) => f.includes('INTERNAL'))).toBe(true);
    // A client's own workbook has no Portfolio column and no internal marking.
    expect(openpyxlSheets(join(out, 'okafor-household-2026-10-31.xlsx')).Holdings![0]![0]).toBe('Row');

    const json = readJson(join(out, 'consolidated-2026-10-31.json'));
    expect(json).toMatchObject({ audience: 'internal', portfolios: ['okafor-household', 'lindqvist-trust'] });
    const grouped = json.projections.data as { asset_id: string; holding_count: number; portfolio: string }[];
    expect(new Set(grouped.map((p) => p.asset_id)).size).toBe(grouped.length);
    expect(grouped.some((p) => p.holding_count > 1 && p.portfolio.includes(', '))).toBe(true);
  });

  it('shows one valuation per holding across Holdings, Projections and Exit analysis', async () => {
    const file = join(dir, 'one-valuation.csv');
    writeFileSync(file, csvFile(watchRows(7)));
    const out = join(dir, 'one-valuation-out');
    const r = await runCli(['run', file, '--out', out, '--as-of', '2026-10-31', '--formats', 'json'], serviceEnv(sb));
    expect(r.code).toBe(0);
    const json = readJson(join(out, 'one-valuation-2026-10-31.json'));
    const byRow = new Map((json.holdings as { row: number; current_value: number; confidence: number; market_validated: boolean }[]).map((h) => [h.row, h]));
    const sections = [...json.projections.data, ...json.exit_analysis.data] as { row: number; current_value: number; confidence: number; market_validated: boolean }[];
    expect(sections.length).toBeGreaterThan(0);
    for (const s of sections) {
      const h = byRow.get(s.row)!;
      expect({ value: s.current_value, confidence: s.confidence, validated: s.market_validated }, `row ${s.row}`).toEqual({
        value: expect.closeTo(h.current_value, 2),
        confidence: h.confidence,
        validated: h.market_validated,
      });
    }
  });
});
