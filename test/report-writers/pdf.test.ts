import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Holding } from '../../reports/report-data';
import { PDF_MAX_HOLDINGS, writePdf } from '../../reports/writers/pdf';
import { formatMoney } from '../../reports/writers/text-format';
import { makeReportData } from '../../fixtures/report-data';
import { folded, pdfFonts, pdfInfo, pdfText, tempDir } from './tools';

const printable = (t: string) => t.replace(/[\u0000-\u001f]+/g, ' ').trim();

describe('PDF writer, read back with poppler', () => {
  const data = makeReportData({ holdings: 60, injections: true, errors: 4, previous: true });
  const holdings = [...data.holdings] as Holding[];
  const file = path.join(tempDir('pdf'), 'report.pdf');
  let text: string;
  let pages: number;

  beforeAll(async () => {
    await writePdf(data, file);
    text = folded(await pdfText(file));
    pages = Number((await pdfInfo(file)).Pages);
  });

  it('shows every holding description and asset id', () => {
    for (const h of holdings) {
      expect(text, `row ${h.row}`).toContain(printable(h.description));
      expect(text).toContain(h.asset_id);
    }
  });

  it('shows the total value, the invested total and the cover', () => {
    expect(text).toContain(formatMoney(data.summary.current_value, 'USD'));
    expect(text).toContain(formatMoney(data.summary.current_value, 'USD', 0));
    expect(text).toContain(formatMoney(data.summary.total_invested, 'USD'));
    expect(text).toContain('Whitcombe Family Collection');
    expect(text).toContain('Prepared for Eleanor Whitcombe');
    expect(text).toContain('Valued as of 31 October 2026');
    expect(text).toContain('SANDBOX DATA');
  });

  it('numbers every page "Page n of N"', () => {
    expect(pages).toBeGreaterThan(4);
    for (let n = 1; n <= pages; n++) expect(text).toContain(`Page ${n} of ${pages}`);
  });

  it('repeats the holdings table header on each page the table spans', async () => {
    const layoutText = await pdfText(file, true);
    const pageTexts = layoutText.split('\f').slice(0, pages);
    const holdingPages = pageTexts.filter((t) => holdings.some((h) => t.includes(h.asset_id)));
    expect(holdingPages.length).toBeGreaterThan(1);
    for (const t of holdingPages.filter((t) => !t.includes('Projections'))) expect(t).toContain('Value (range)');
  });

  it('prints the errors, method notes and the disclaimer', () => {
    for (const e of data.errors) expect(text).toContain(folded(e.message));
    expect(text).toContain(folded(data.method_notes[0]!));
    expect(text).toContain('Values in this report are model estimates');
    expect(text).toMatch(/[\d.]+ % of the value \(\d+ of 60 valuations\) is not market validated/);
  });

  it('embeds its own fonts (subsets of the DejaVu files shipped in reports/fonts)', async () => {
    const fonts = await pdfFonts(file);
    const rows = fonts.split('\n').slice(2).filter((l) => l.trim() !== '');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(row).toMatch(/DejaVu/);
      expect(row).toMatch(/\byes\s+yes\s+yes\b/); // embedded, subset, unicode map
    }
  });

  it('has a document outline with the sections', () => {
    const raw = readFileSync(file).toString('latin1');
    expect(raw).toContain('/Outlines');
    for (const title of ['Cover', 'Summary', 'Holdings', 'Exit analysis', 'Disclaimer']) expect(raw).toContain(`/Title (${title})`);
  });

  it('lists the largest holdings of a very large portfolio, the rest on one line, the total unchanged', async () => {
    const big = makeReportData({ holdings: PDF_MAX_HOLDINGS + 40, seed: 3 });
    const all = [...big.holdings] as Holding[];
    const f = path.join(tempDir('pdf-big'), 'big.pdf');
    await writePdf(big, f);
    const t = folded(await pdfText(f));
    expect(t).toContain(`the ${PDF_MAX_HOLDINGS.toLocaleString('en-US')} largest by value are listed here`);
    expect(t).toContain('Other holdings (40)');
    expect(t).toContain(formatMoney(big.summary.current_value, 'USD', 0));
    const largest = all.reduce((a, b) => (b.current_value > a.current_value ? b : a));
    const smallest = all.reduce((a, b) => (b.current_value < a.current_value ? b : a));
    expect(t).toContain(largest.asset_id);
    expect(t).not.toContain(smallest.asset_id);
  });

  it('prints a note in place of each section the tier does not have', async () => {
    const starter = makeReportData({ holdings: 5, starterTier: true, sandbox: false });
    // No firm configured: no "Prepared by" on the cover and no author in the document info.
    delete starter.cover.prepared_by;
    const f = path.join(tempDir('pdf-starter'), 'starter.pdf');
    await writePdf(starter, f);
    const t = folded(await pdfText(f));
    expect(t).toContain('Projections are not part of this report.');
    expect(t).toContain('Exit analysis is not part of this report.');
    expect(t).toContain('Performance against benchmarks is not part of this report.');
    // The analyst's notes (tier, scope, HTTP status) never reach the client PDF.
    expect(starter.analyst_notes.join(' ')).toMatch(/403/);
    expect(t).not.toMatch(/\b403\b|\btier\b|\bscope\b/i);
    expect(t).not.toContain('SANDBOX DATA');
    expect(t).not.toContain('PREPARED BY');
  });

  it('keeps a nine-digit key figure and a long portfolio name on one line each', async () => {
    const big = makeReportData({ holdings: 5 });
    big.summary.current_value = 342_927_359.73;
    big.cover.portfolio_name = 'Consolidated — Okafor Household, Lindqvist Trust, Tanaka Collection, Hartley Family, Hartley Foundation, Ng Collectibles';
    const f = path.join(tempDir('pdf-big'), 'big.pdf');
    await writePdf(big, f);
    const lines = (await pdfText(f, true)).split('\n');
    // Wrapped, the figure came out as "$342,927,359.7" with the "3" on the next line.
    expect(lines.some((l) => l.includes(formatMoney(342_927_359.73, 'USD')))).toBe(true);
    expect(lines.some((l) => /Consolidated — Okafor Household.*…/.test(l))).toBe(true);
  });
});
