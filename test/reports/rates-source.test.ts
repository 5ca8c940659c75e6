import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECB_HIST_CURRENCIES, ratesKind } from '../../src/fx';
import { ROOT, readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/**
 * Issue 27, "sources stated as they are", through the real command and read back with
 * independent readers (pdftotext for the client PDF, the JSON's method_notes): the European
 * Central Bank is named only for the ECB's own file; a firm's file is the firm's, with its name
 * and last rate; the demo's illustrative file is called illustrative in the Method text and on
 * every page.
 */

/** One run per rates file, a few seconds each on a loaded 2-core machine. */
const LOADED_MACHINE_MS = 240_000;

let sb: TestSandbox;
let dir: string;
let holdings: string;
beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-rates-source-');
  holdings = join(dir, 'client.csv');
  writeFileSync(
    holdings,
    'segment,brand,model,reference,year,purchase_price,purchase_date,currency\nwatches,Rolex,Submariner Date,126610LN,2021,11000,2022-03-14,GBP\nwatches,Omega,Speedmaster Moonwatch Professional,310.30.42.50.01.001,2021,6200,2023-04-04,USD\n',
  );
});
afterAll(async () => {
  await sb?.close();
});

/** The ECB's eurofxref-hist.csv as published: its whole header, N/A where a currency has no rate, a trailing comma. */
function ecbFile(): string {
  const rates: Record<string, Record<string, string>> = {
    '2026-10-30': { USD: '1.0850', GBP: '0.84200' },
    '2023-04-04': { USD: '1.0950', GBP: '0.87800' },
    '2022-03-14': { USD: '1.0940', GBP: '0.83600' },
  };
  const line = (cells: string[]) => `${cells.join(',')},`;
  return [line(['Date', ...ECB_HIST_CURRENCIES]), ...Object.entries(rates).map(([date, r]) => line([date, ...ECB_HIST_CURRENCIES.map((c) => r[c] ?? 'N/A')]))].join('\n') + '\n';
}

const PLAIN = 'date,currency,rate_per_eur\n2026-10-30,USD,1.0850\n2026-10-30,GBP,0.84200\n2023-04-04,USD,1.0950\n2023-04-04,GBP,0.87800\n2022-03-14,USD,1.0940\n2022-03-14,GBP,0.83600\n';

/**
 * pdftotext joins a word hyphenated at a line end ("house-" / "rates.csv" becomes "houserates.csv"),
 * so PDF text is compared without spaces and hyphens on both sides.
 */
const squash = (text: string) => text.replace(/[\s-]+/g, '');

/** Each sheet's printed header (centre part), read with openpyxl (the system's python3, where python3-openpyxl is). */
function sheetHeaders(xlsx: string): string[] {
  const script = 'import openpyxl,sys\nwb=openpyxl.load_workbook(sys.argv[1])\nfor ws in wb.worksheets: print(ws.oddHeader.center.text or "")';
  return execFileSync('/usr/bin/python3', ['-c', script, xlsx], { encoding: 'utf8' }).trimEnd().split('\n');
}

/** Runs the report with `rates` and reads its Method text back from the PDF (pdftotext) and the JSON. */
async function methodText(name: string, rates: string) {
  const out = join(dir, `${name}-out`);
  const r = await runCli(['run', holdings, '--out', out, '--formats', 'json,pdf,xlsx', '--as-of', '2026-10-31', '--currency', 'USD', '--fx-rates', rates], serviceEnv(sb));
  expect(r.stderr).not.toMatch(/svc-report: /);
  expect(r.code).toBe(0);
  const files = { pdf: join(out, 'client-2026-10-31.pdf'), json: join(out, 'client-2026-10-31.json'), xlsx: join(out, 'client-2026-10-31.xlsx') };
  const pages = execFileSync('pdftotext', [files.pdf, '-'], { encoding: 'utf8' }).split('\f').filter((p) => p.trim() !== '');
  const pdf = pages.join(' ').replace(/\s+/g, ' ');
  const json = readJson(files.json) as { method_notes: string[]; illustrative_rates?: boolean };
  return { pdf, pages, notes: json.method_notes.join(' '), illustrative: json.illustrative_rates, sheetHeaders: sheetHeaders(files.xlsx) };
}

describe('the Method text names the rates as what they are', { timeout: LOADED_MACHINE_MS }, () => {
  it("the ECB's own file (its published header): the European Central Bank's reference rates, file and last rate", async () => {
    const rates = join(dir, 'eurofxref-hist.csv');
    writeFileSync(rates, ecbFile());
    const { pdf, notes, illustrative, sheetHeaders } = await methodText('ecb', rates);
    const said = "converted to USD with the European Central Bank's euro reference rates (eurofxref-hist.csv, last rate 2026-10-30)";
    expect(squash(pdf)).toContain(squash(said));
    expect(notes).toContain(said);
    expect(pdf).not.toMatch(/ILLUSTRATIVE/i);
    expect(illustrative).toBe(false);
    for (const header of sheetHeaders) expect(header).not.toContain('ILLUSTRATIVE');
  });

  it("a plain date,currency,rate_per_eur file: the firm's exchange rates, never the ECB's", async () => {
    const rates = join(dir, 'house-rates.csv');
    writeFileSync(rates, PLAIN);
    const { pdf, notes } = await methodText('plain', rates);
    const said = "converted to USD with the firm's exchange rates (house-rates.csv, last rate 2026-10-30)";
    expect(squash(pdf)).toContain(squash(said));
    expect(notes).toContain(said);
    expect(pdf).not.toContain('European Central Bank');
    expect(notes).not.toContain('European Central Bank');
  });

  it('the examples\' illustrative file: called illustrative in the Method text and marked on every page', async () => {
    const { pdf, pages, notes, illustrative, sheetHeaders } = await methodText('illustrative', join(ROOT, 'examples', 'fx-rates-ILLUSTRATIVE.csv'));
    const said = "converted to USD with illustrative exchange rates that are not the European Central Bank's or any market's (fx-rates-ILLUSTRATIVE.csv, last rate 2026-11-20)";
    expect(squash(pdf)).toContain(squash(said));
    expect(notes).toContain(said);
    expect(notes).toContain('every converted amount in this report is illustrative only, not a real figure');
    expect(pdf).not.toContain("with the European Central Bank's");
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page).toContain('ILLUSTRATIVE RATES');
    expect(pdf).toContain('ILLUSTRATIVE EXCHANGE RATES');
    expect(illustrative).toBe(true);
    expect(sheetHeaders.length).toBeGreaterThan(1);
    for (const header of sheetHeaders) expect(header).toContain('ILLUSTRATIVE RATES');
  });
});

describe('what a rates file is', () => {
  it("the ECB's layout with a shortened header, or with a comment, is not the ECB's own file", () => {
    const ecb = ecbFile();
    expect(ratesKind(ecb, 'eurofxref-hist.csv')).toBe('ecb');
    expect(ratesKind('Date,USD,JPY,BGN,CYP,GBP,CHF,HKD,SGD,\n2026-10-30,1.08,162.1,1.9558,N/A,0.842,0.931,8.44,1.43,\n', 'eurofxref-hist.csv')).toBe('firm');
    expect(ratesKind(`# rates as of Friday\n${ecb}`, 'eurofxref-hist.csv')).toBe('firm');
    expect(ratesKind(PLAIN, 'rates.csv')).toBe('firm');
    expect(ratesKind(ecb, 'rates-ILLUSTRATIVE.csv')).toBe('illustrative');
    expect(ratesKind(`# Illustrative rates for training\n${PLAIN}`, 'rates.csv')).toBe('illustrative');
  });
});
