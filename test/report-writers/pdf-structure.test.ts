import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Holding, ReportData } from '../../reports/report-data';
import { writeDashboardPdf } from '../../reports/writers/dashboard-pdf';
import { writeCsv } from '../../reports/writers/csv';
import { writeJson } from '../../reports/writers/json';
import { writePdf } from '../../reports/writers/pdf';
import { makeDashboardData, makeReportData } from '../../fixtures/report-data';
import { readStructure, type PdfStructure } from './pdf-structure';
import { expectArchivalAndTagged } from './pdf-archival';
import { folded, pdfFonts, pdfText, tempDir } from './tools';

const run = promisify(execFile);
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(path.resolve('reports/schema/portfolio-report.schema.json'), 'utf8')));

const count = (s: PdfStructure, type: string) => s.elements.filter((e) => e.type === type).length;

async function xmpIsWellFormed(xmp: string, dir: string): Promise<void> {
  const file = path.join(dir, 'xmp.xml');
  writeFileSync(file, xmp.replace(/^<\?xpacket[^>]*\?>/, '').replace(/<\?xpacket[^>]*\?>\s*$/, ''));
  await run('xmllint', ['--noout', file]);
}

describe('portfolio PDF: PDF/A-3a and PDF/UA-1, read back with qpdf, poppler and xmllint', () => {
  const dir = tempDir('pdf-ua');
  const base = makeReportData({ holdings: 60, injections: true, errors: 4, previous: true });
  const data: ReportData = { ...base, cover: { ...base.cover, client_name: 'Eleanor Whitcombe & <Sons>' } };
  const file = path.join(dir, 'whitcombe-2026-10-31.pdf');
  let s: PdfStructure;

  beforeAll(async () => {
    await writePdf(data, file);
    s = await readStructure(file);
  }, 120_000);

  it('passes qpdf --check', async () => {
    const { stdout } = await run('qpdf', ['--check', file]);
    expect(stdout).toMatch(/No syntax or stream encoding errors found/);
  });

  it('is marked, has /Lang, shows its title, identifies PDF/A-3a and PDF/UA-1 in well-formed XMP, and tags everything', async () => {
    expectArchivalAndTagged(s, 'en-GB');
    expect(s.xmp).toContain('Eleanor Whitcombe &amp; &lt;Sons&gt;');
    await xmpIsWellFormed(s.xmp, dir);
  });

  it('has headings, paragraphs, real tables with column headers, a list and two figures whose alt text says what they show', () => {
    expect(count(s, 'H1')).toBe(1);
    expect(count(s, 'H2')).toBeGreaterThanOrEqual(8);
    expect(count(s, 'P')).toBeGreaterThan(5);
    expect(count(s, 'Table')).toBeGreaterThanOrEqual(5);
    expect(count(s, 'TR')).toBeGreaterThan(60);
    expect(count(s, 'TD')).toBeGreaterThan(600);
    expect(s.elements.filter((e) => e.type === 'TH' && e.scope === 'Column').length).toBeGreaterThan(13);
    expect(count(s, 'L')).toBe(1);
    expect(count(s, 'LI')).toBeGreaterThanOrEqual(2);
    const alts = s.elements.filter((e) => e.type === 'Figure').map((e) => e.alt!);
    expect(alts).toHaveLength(2);
    expect(alts[0]).toMatch(/^Allocation of the portfolio value by segment, donut chart: /);
    for (const a of data.allocation) expect(alts[0]).toContain(a.segment_name);
    expect(alts[1]).toMatch(/^One-year market measure of today's holdings against the benchmarks, bar chart: Today's holdings [+−-]?\d/);
  });

  it('reads in order with pdftotext', async () => {
    const text = folded(await pdfText(file));
    const order = ['PRIVATE CLIENT REPORT', data.cover.portfolio_name, 'Summary', 'Allocation by segment'.toUpperCase(), "Market measure (the valuation service's)", 'Holdings', 'Projections for the largest holdings', 'Exit analysis', 'Rows not valued', 'Method', 'Disclaimer'];
    // Each heading found after the one before it.
    let from = 0;
    for (const t of order) {
      const at = text.indexOf(t, from);
      expect(at, `${t} after position ${from}`).toBeGreaterThanOrEqual(0);
      from = at + t.length;
    }
  });

  it('embeds the report JSON (valid against the schema) and CSV as PDF/A-3 associated files, identical to the JSON and CSV writers\' files', async () => {
    expect(s.associatedFiles).toBe(2);
    expect(s.attachments.map((a) => [a.name, a.relationship, a.subtype])).toEqual([
      ['whitcombe-2026-10-31.csv', 'Data', '/text/csv'],
      ['whitcombe-2026-10-31.json', 'Data', '/application/json'],
    ]);
    const json = (await run('qpdf', ['--show-attachment=whitcombe-2026-10-31.json', file], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 })).stdout;
    const doc = JSON.parse(json.toString('utf8'));
    const ok = validateReport(doc);
    expect(validateReport.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(doc.holdings).toHaveLength(60);
    await writeJson(data, path.join(dir, 'direct.json'));
    expect(json.equals(readFileSync(path.join(dir, 'direct.json')))).toBe(true);
    const csv = (await run('qpdf', ['--show-attachment=whitcombe-2026-10-31.csv', file], { encoding: 'buffer' })).stdout;
    await writeCsv(data, path.join(dir, 'direct.csv'));
    expect(csv.equals(readFileSync(path.join(dir, 'direct.csv')))).toBe(true);
  });

  it('embeds every font it uses', async () => {
    const fonts = (await pdfFonts(file)).split('\n').slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThan(1);
    for (const line of fonts) expect(line).toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+$/);
  });
});

describe('text in six scripts', () => {
  const names = {
    latin: 'Whitcombe Ærø Collection',
    greek: 'Συλλογή Παπαδόπουλου',
    cyrillic: 'Коллекция Смирновых',
    // Simplified (陈): outside Japanese and Traditional Chinese fonts' sets, so the Simplified Chinese font is used.
    chinese: '陈大文家族收藏',
    japanese: '山田家のコレクション',
    korean: '김철수 가족 컬렉션',
  };
  const dir = tempDir('pdf-scripts');
  const file = path.join(dir, 'scripts.pdf');
  const base = makeReportData({ holdings: 12 });
  const scripts = Object.values(names);
  const holdings = [...base.holdings].map((h, i) => ({ ...h, description: `${scripts[i % scripts.length]} ${h.description}` })) as Holding[];
  const data: ReportData = { ...base, cover: { ...base.cover, portfolio_name: names.japanese, client_name: `${names.korean} / ${names.chinese}` }, holdings };

  beforeAll(async () => {
    await writePdf(data, file);
  }, 120_000);

  it('prints every name with real glyphs: pdftotext returns the same strings', async () => {
    const text = folded(await pdfText(file));
    for (const name of scripts) expect(text, name).toContain(name);
    expect(text).toContain(`Prepared for ${names.korean} / ${names.chinese}`);
  });

  it('embeds every font, the Noto CJK fallbacks subset', async () => {
    const fonts = (await pdfFonts(file)).split('\n').slice(2).filter(Boolean);
    for (const line of fonts) expect(line).toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+$/);
    const names = fonts.map((l) => l.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''));
    expect(names).toEqual(expect.arrayContaining(['NotoSansJP-Regular', 'NotoSansKR-Regular', 'DejaVuSansCondensed']));
    expect(names).toContain('NotoSansHans-Regular');
    // Subset: the whole Noto Sans JP is 4.5 MB; a report carries only its glyphs.
    expect(readFileSync(file).length).toBeLessThan(1_500_000);
  });

  it('keeps the tagging complete with fallback fonts', async () => {
    const s = await readStructure(file);
    expect(s.untaggedText).toBe(0);
    expect(s.untaggedPaint).toBe(0);
  });

  it('lays out right-to-left text (no warning left about it) and never prints a name\'s control characters raw', async () => {
    const warnings: string[] = [];
    const listen = (w: Error) => warnings.push(w.message);
    process.on('warning', listen);
    try {
      await writePdf({ ...data, cover: { ...data.cover, client_name: 'משפחת כהן', portfolio_name: 'כהן \u202e\u001b[31m' } }, path.join(dir, 'rtl.pdf'));
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', listen);
    }
    // Hebrew has a font (Noto Sans Hebrew where DejaVu Serif lacks it) and a bidirectional layout.
    expect(warnings.filter((w) => /right-to-left|U\+05/.test(w))).toEqual([]);
    // A name cannot colour the terminal or reverse the line a warning (its missing glyphs) is printed on.
    expect(warnings.join('\n')).not.toMatch(/[\u001b\u202e]/);
    expect(await pdfFonts(path.join(dir, 'rtl.pdf'))).toMatch(/[A-Z]{6}\+NotoSansHebrew-Bold/);
  });
});

describe('consolidated PDF: tagged and archival too', () => {
  it('tags everything and embeds its data', async () => {
    const file = path.join(tempDir('pdf-consolidated'), 'consolidated-2026-10-31.pdf');
    const data = makeReportData({ holdings: 40, consolidated: ['Okafor Household', '山田家', 'Смирнов'] });
    await writePdf(data, file);
    const s = await readStructure(file);
    expectArchivalAndTagged(s, 'en-GB');
    expect(count(s, 'Figure')).toBeGreaterThanOrEqual(1);
    expect(s.attachments.map((a) => a.name)).toEqual(['consolidated-2026-10-31.csv', 'consolidated-2026-10-31.json']);
    expect(folded(await pdfText(file))).toContain('山田家');
  }, 120_000);
});

describe('dashboard PDF: tagged and archival too', () => {
  it('tags everything, has its figure alt text and embeds its JSON and CSV', async () => {
    const dir = tempDir('pdf-dash');
    const file = path.join(dir, 'market-dashboard-2026-10-31.pdf');
    const data = makeDashboardData();
    await writeDashboardPdf(data, file);
    const s = await readStructure(file);
    expectArchivalAndTagged(s, 'en-GB');
    expect(count(s, 'H1')).toBe(1);
    const alt = s.elements.find((e) => e.type === 'Figure')!.alt!;
    expect(alt).toMatch(/^30-day price change by segment, bar chart: /);
    for (const seg of data.segments) expect(alt).toContain(seg.segment_name);
    expect(s.attachments.map((a) => a.name)).toEqual(['market-dashboard-2026-10-31.csv', 'market-dashboard-2026-10-31.json']);
    const json = (await run('qpdf', ['--show-attachment=market-dashboard-2026-10-31.json', file])).stdout;
    const validateDashboard = ajv.compile(JSON.parse(readFileSync(path.resolve('reports/schema/market-dashboard.schema.json'), 'utf8')));
    expect(validateDashboard(JSON.parse(json)), JSON.stringify(validateDashboard.errors)).toBe(true);
    const { stdout } = await run('qpdf', ['--check', file]);
    expect(stdout).toMatch(/No syntax or stream encoding errors found/);
  }, 120_000);
});
