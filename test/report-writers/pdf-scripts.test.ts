/**
 * Text in every script the reports are written in (issue 36): Arabic shaped and laid out right to
 * left by the bidirectional algorithm, pages mirrored in an `ar` report, Chinese and Japanese in
 * the embedded Noto CJK fonts, and a span in another script marked with its own /Lang. Read back
 * with poppler (pdftotext, -bbox-layout, pdffonts, pdftoppm), qpdf and fontkit.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import * as fontkit from 'fontkit';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Holding, ReportData } from '../../reports/report-data';
import { writePdf } from '../../reports/writers/pdf';
import { PdfPages } from '../../reports/writers/pdf-layout';
import { drawTable } from '../../reports/writers/pdf-table';
import { houseFont, SHAPED_RTL } from '../../reports/writers/pdf-fonts';
import { makeReportData } from '../../fixtures/report-data';
import { readStructure } from './pdf-structure';
import { expectArchivalAndTagged } from './pdf-archival';
import { pdfFonts, pdfText, tempDir } from './tools';

const run = promisify(execFile);

const CLIENT = 'محمد بن راشد آل مكتوم';
/** With a lam-alef ("علاء"): a required ligature, drawn only when shaping is on for the run. */
const HOLDER = 'علاء الدين الزهراء';
/** Notes with a watch model and figures inside: the model and numbers stay left to right. */
const NOTES = 'ملاحظة: هذه الساعة Rolex Daytona 116500LN اشتريت في عام 2021 من دبي.';
const JAPANESE = '山田太郎様のポートフォリオ';
const CHINESE = '王小明的收藏品估值报告';

/** poppler wraps right-to-left text in embedding controls (RLE … PDF): formatting, not content. */
const withoutBidiControls = (s: string) => s.replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
const lines = (s: string) => withoutBidiControls(s).split('\n').map((l) => l.trim());

async function draw(file: string, lang: string, fill: (p: PdfPages) => void): Promise<void> {
  const p = new PdfPages({ title: CLIENT, subtitle: 'تقييم المحفظة', reference: 'مرجع', sandbox: false }, { Title: 'scripts' }, { lang, created: new Date('2026-10-31T00:00:00Z') });
  p.addPage();
  fill(p);
  await p.finish(createWriteStream(file));
}

interface Word {
  text: string;
  xMin: number;
}
async function words(file: string): Promise<Word[]> {
  const { stdout } = await run('pdftotext', ['-bbox-layout', '-f', '1', '-l', '1', file, '-']);
  return [...stdout.matchAll(/<word xMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)].map((m) => ({ xMin: Number(m[1]), text: m[2]! }));
}

type QpdfObjects = Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown>; data?: string } }>;
async function objectsOf(file: string): Promise<QpdfObjects> {
  const { stdout } = await run('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=generalized', file], { maxBuffer: 256 * 1024 * 1024 });
  return (JSON.parse(stdout) as { qpdf: [unknown, QpdfObjects] }).qpdf[1];
}
const streamOf = (objects: QpdfObjects, ref: unknown): Buffer => {
  const data = objects[`obj:${String(ref)}`]?.stream?.data;
  if (!data) throw new Error(`no stream ${String(ref)}`);
  return Buffer.from(data, 'base64');
};

/** The embedded font file of a PDF's font whose name contains `name`, parsed by fontkit, and its ToUnicode map. */
async function embeddedFont(file: string, name: string): Promise<{ font: fontkit.Font; toUnicode: string }> {
  const objects = await objectsOf(file);
  const descriptor = Object.values(objects).find((o) => o.value?.['/Type'] === '/FontDescriptor' && String(o.value['/FontName']).includes(name));
  const type0 = Object.values(objects).find((o) => o.value?.['/Subtype'] === '/Type0' && String(o.value['/BaseFont']).includes(name));
  if (!descriptor || !type0) throw new Error(`no font ${name}`);
  return {
    font: fontkit.create(streamOf(objects, descriptor.value!['/FontFile2'] ?? descriptor.value!['/FontFile3'])) as fontkit.Font,
    toUnicode: streamOf(objects, type0.value!['/ToUnicode']).toString('latin1'),
  };
}

/** A glyph's outline as SVG path data, to find it in a subset (glyph ids are renumbered there). */
const outline = (g: fontkit.Glyph): string => {
  try {
    return g.path?.toSVG() ?? '';
  } catch {
    return '';
  }
};

describe('Arabic in the PDF: shaped, right to left, extracted in logical order, pages mirrored', () => {
  const dir = tempDir('pdf-ar');
  const file = path.join(dir, 'arabic.pdf');
  let text: string;

  beforeAll(async () => {
    await draw(file, 'ar', (p) => {
      p.section('ملخص المحفظة');
      p.paragraph(CLIENT);
      p.paragraph(NOTES);
      drawTable(p, [{ label: 'المالك', width: 200 }, { label: 'القيمة', width: 120, align: 'right' }], [[HOLDER, '١٢٣']]);
    });
    text = await pdfText(file);
  }, 60_000);

  it('reads back in logical order: the client name and the table cell exactly, the notes with their model and year in order', () => {
    const read = lines(text);
    expect(read).toContain(CLIENT);
    expect(read).toContain(HOLDER);
    // pdftotext puts the space at a change of direction on the wrong side of it ("LN␣اشتريت"
    // reads "LNاشتريت", with two spaces before "Rolex"): the characters and their order are
    // compared, not where poppler put the spaces.
    const squeezed = (s: string) => s.replace(/\s+/g, '');
    expect(read.map(squeezed)).toContain(squeezed(NOTES));
  });

  it('draws the joined (positional) forms: the glyphs the shaper chose are in the embedded subset, not only the isolated letters', async () => {
    const sans = houseFont('sans') as fontkit.Font;
    const shaped = (sans.layout(HOLDER, SHAPED_RTL as never) as fontkit.GlyphRun).glyphs;
    const isolated = [...HOLDER].map((c) => sans.glyphForCodePoint(c.codePointAt(0)!).id);
    // Joining changes most letters' glyphs: shaping really happened.
    expect(shaped.filter((g) => !isolated.includes(g.id)).length).toBeGreaterThanOrEqual(6);
    const { font: subset, toUnicode } = await embeddedFont(file, 'DejaVuSansCondensed');
    const inSubset = new Set(Array.from({ length: subset.numGlyphs }, (_, i) => outline(subset.getGlyph(i))).filter(Boolean));
    // fontkit cannot draw the ligature's composite outline: it is found by its ToUnicode entry below.
    for (const g of shaped.filter((x) => outline(x))) expect(inSubset.has(outline(g)), `glyph ${g.id} (${g.codePoints}) embedded`).toBe(true);
    // The lam-alef ligature (one glyph for two letters, mapped back to them in visual order: alef,
    // lam) is drawn only with shaping on for the run.
    expect(shaped.some((g) => g.codePoints.length === 2)).toBe(true);
    expect(toUnicode.toLowerCase()).toContain('<0627 0644>');
  });

  it('mirrors a table: the first column is drawn at the right', async () => {
    const w = await words(file);
    // -bbox-layout gives each word's glyphs as drawn, left to right: an Arabic word reversed.
    const drawn = (s: string) => [...s].reverse().join('');
    const first = w.find((x) => x.text === drawn('المالك'));
    const second = w.find((x) => x.text === drawn('القيمة'));
    expect(first && second).toBeTruthy();
    expect(first!.xMin).toBeGreaterThan(second!.xMin);
    // Right aligned at the start side: the heading ends near the right margin.
    const heading = w.find((x) => x.text === drawn('المحفظة'))!;
    expect(heading.xMin).toBeGreaterThan(595.28 / 2);
  });
});

describe('an ar report from the writer: PDF/A-3a and PDF/UA-1 hold, pages reviewed as images', () => {
  const dir = tempDir('pdf-ar-report');
  const file = path.join(dir, 'ar-report.pdf');
  const base = makeReportData({ holdings: 6 });
  const holdings = [...base.holdings].map((h, i): Holding => (i === 0 ? { ...h, description: `ساعة Rolex Daytona 116500LN (2021)` } : h));
  const data: ReportData = { ...base, language: 'ar', holdings, cover: { ...base.cover, client_name: CLIENT } };

  beforeAll(async () => {
    await writePdf(data, file);
  }, 120_000);

  it('states /Lang ar, is tagged throughout and identifies PDF/A-3a and PDF/UA-1', async () => {
    // Each chart described in Arabic (a sentence of its own, not the English "chart: …").
    expectArchivalAndTagged(await readStructure(file), 'ar', { figureAlt: /[\u0600-\u06ff].{20,}/ });
    const { stdout } = await run('qpdf', ['--check', file]);
    expect(stdout).toMatch(/No syntax or stream encoding errors found/);
  });

  it('renders pages 1 and 2 for review (path printed)', async () => {
    // The run's temp folder is removed after the run: REPORT_REVIEW_DIR keeps them for review.
    const shots = process.env.REPORT_REVIEW_DIR ? mkdtempSync(path.join(process.env.REPORT_REVIEW_DIR, 'ar-screens-')) : tempDir('ar-screens');
    // One page per call with -singlefile: pdftoppm pads page numbers to the document's page count otherwise.
    for (const page of [1, 2]) await run('pdftoppm', ['-png', '-r', '70', '-f', String(page), '-l', String(page), '-singlefile', file, path.join(shots, `ar-page-${page}`)]);
    console.log(`Arabic report pages 1 and 2: ${shots}/ar-page-1.png, ${shots}/ar-page-2.png`);
    expect(readFileSync(path.join(shots, 'ar-page-1.png')).length).toBeGreaterThan(1000);
    expect(readFileSync(path.join(shots, 'ar-page-2.png')).length).toBeGreaterThan(1000);
  });
});

describe('Chinese and Japanese: drawn in the embedded Noto CJK fonts, no missing glyph; a span in another script has its /Lang', () => {
  const dir = tempDir('pdf-cjk');
  const file = path.join(dir, 'cjk.pdf');
  const requireHere = createRequire(import.meta.url);
  const notoFile = (pkg: string, name: string) => path.join(path.dirname(requireHere.resolve(pkg)), '..', 'fonts', name);

  beforeAll(async () => {
    await draw(file, 'de', (p) => {
      p.section('Bewertung');
      p.paragraph(JAPANESE);
      p.paragraph(CHINESE);
    });
  }, 60_000);

  it('embeds the CJK fonts as subsets and extracts the text', async () => {
    const fonts = await pdfFonts(file);
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansJP-Regular\s+\S.*\s+yes\s+yes\s+yes/);
    const read = lines(await pdfText(file));
    expect(read).toContain(JAPANESE);
    expect(read).toContain(CHINESE);
  });

  it('has a glyph for every character of the test strings in the font that draws it', () => {
    const jp = fontkit.create(readFileSync(notoFile('@embedpdf/fonts-jp', 'NotoSansJP-Regular.otf'))) as fontkit.Font;
    const sc = fontkit.create(readFileSync(notoFile('@embedpdf/fonts-sc', 'NotoSansHans-Regular.otf'))) as fontkit.Font;
    for (const c of JAPANESE) expect(jp.hasGlyphForCodePoint(c.codePointAt(0)!), c).toBe(true);
    // Han without kana: the Japanese font (first fallback) or the Simplified Chinese one.
    for (const c of CHINESE) expect(jp.hasGlyphForCodePoint(c.codePointAt(0)!) || sc.hasGlyphForCodePoint(c.codePointAt(0)!), c).toBe(true);
  });

  it('marks the Japanese name in the German document as a Span with /Lang (ja)', async () => {
    const { stdout } = await run('qpdf', ['--qdf', '--object-streams=disable', file, '-']);
    expect(stdout.toString()).toMatch(/\/Span <<\s*\/Lang \(ja\)\s*>> BDC/);
    expect(stdout.toString()).toMatch(/\/Span <<\s*\/Lang \(zh\)\s*>> BDC/);
  });
});
