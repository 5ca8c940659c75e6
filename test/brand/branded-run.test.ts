/**
 * Issue 28 through the real command against the sandbox: a branded month-end run, read back
 * with independent readers — poppler (pdfimages, pdftotext, pdffonts), qpdf for the tagging,
 * openpyxl for the workbook, LibreOffice converting it — and two runs with a fixed
 * SOURCE_DATE_EPOCH giving the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, csvFile, runCli, serviceEnv, tempDir, testSandbox, watchRows, type CliResult, type TestSandbox } from '../reports/helpers';
import { readStructure } from '../report-writers/pdf-structure';
import { expectArchivalAndTagged } from '../report-writers/pdf-archival';
import { libreOfficeConvert, pdfFonts } from '../report-writers/tools';
import { EXAMPLE_BRAND, FIRM, writeBrand } from './brand-files';

/** Debian's python3 with python3-openpyxl (a pyenv python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';
const HOLDINGS = join(ROOT, 'examples/meridian-wealth-clients.csv');

let sb: TestSandbox;
let out: string;
let run: CliResult;
const okafor = () => join(out, 'okafor-household-2026-10-31.pdf');

beforeAll(async () => {
  sb = await testSandbox();
  out = join(tempDir('svc-brand-run-'), 'out');
  run = await runCli(['run', HOLDINGS, '--brand', EXAMPLE_BRAND, '--out', out, '--as-of', '2026-10-31', '--formats', 'json,csv,pdf,xlsx'], serviceEnv(sb));
}, 300_000);
afterAll(async () => {
  await sb?.close();
});

const text = (file: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');

describe('a branded client PDF', () => {
  it('the run names its brand and finishes', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Brand: ${FIRM}`);
  });

  it('has the logo on page 1 (pdfimages) and the firm, its disclosures, footer and the manager in the text (pdftotext)', () => {
    const images = execFileSync('pdfimages', ['-list', okafor()], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean);
    const onPageOne = images.filter((l) => /^\s*1\s+\d+\s+image\s/.test(l));
    expect(onPageOne).toHaveLength(1);
    // The SVG rasterised 800 pixels wide (src/brand/logo-image.ts).
    expect(onPageOne[0]).toMatch(/image\s+800\s+178\s/);
    const t = text(okafor());
    expect(t).toContain(FIRM);
    expect(t).toContain('PRIVATE CLIENT VALUATION — ASHGROVE & VALE');
    expect(t).toContain('Disclosures — Ashgrove & Vale Private Wealth');
    expect(t).toContain('authorised and regulated by the Financial Conduct Authority (firm reference 000000)');
    expect(t).toContain('refer your complaint to the Financial Ombudsman Service');
    expect(t).toContain('Registered in England and Wales, OC000000');
    expect(t).toContain('Eleanor Whitcombe');
    expect(t).toContain('e.whitcombe@ashgrove-vale.example · +44 20 7946 0321');
    // The sandbox banner stays, whatever the brand.
    expect(t).toContain('SANDBOX DATA');
    // Each portfolio its own manager; the firm's internal consolidated report none.
    expect(text(join(out, 'tanaka-collection-2026-10-31.pdf'))).toContain('Mei Hartono');
    const consolidated = text(join(out, 'consolidated-2026-10-31.pdf'));
    expect(consolidated).toContain(FIRM);
    expect(consolidated).not.toMatch(/Eleanor Whitcombe|Mei Hartono/);
  });

  it('passes the structure checks: tagged, the logo a Figure with /Alt the firm name, PDF/A-3a and PDF/UA-1 in the XMP, fonts embedded', async () => {
    const s = await readStructure(okafor());
    expectArchivalAndTagged(s, 'en-GB', { logoAlt: FIRM });
    const figures = s.elements.filter((e) => e.type === 'Figure');
    expect(figures[0]!.alt).toBe(FIRM);
    expect(figures.filter((f) => f.alt === FIRM)).toHaveLength(1);
    const fonts = (await pdfFonts(okafor())).split('\n').slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThan(1);
    for (const line of fonts) expect(line).toMatch(/^[A-Z]{6}\+\S+.*\s+yes\s+yes\s+yes\s+\d+\s+\d+$/);
  });
});

describe('a branded workbook', () => {
  const xlsx = () => join(out, 'okafor-household-2026-10-31.xlsx');

  it('openpyxl finds the logo on the Summary sheet and the firm in the document properties; app.xml names it as the company', () => {
    const script = [
      'import json, sys, zipfile, openpyxl',
      'wb = openpyxl.load_workbook(sys.argv[1])',
      'ws = wb["Summary"]',
      'app = zipfile.ZipFile(sys.argv[1]).read("docProps/app.xml").decode()',
      'print(json.dumps({"images": len(ws._images), "others": sum(len(w._images) for w in wb.worksheets if w.title != "Summary"), "creator": wb.properties.creator, "modified_by": wb.properties.lastModifiedBy, "app": app, "header_fill": ws.parent["Holdings"]["A1"].fill.fgColor.rgb, "rows": [[c for c in r if c is not None] for r in ws.iter_rows(values_only=True)]}, default=str))',
    ].join('\n');
    const r = JSON.parse(execFileSync(PYTHON, ['-c', script, xlsx()], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
    expect(r.images).toBe(1);
    expect(r.others).toBe(0);
    expect(r.creator).toBe(FIRM);
    expect(r.modified_by).toBe(FIRM);
    expect(r.app).toContain('<Company>Ashgrove &amp; Vale Private Wealth</Company>');
    // Header rows in the firm's primary colour.
    expect(r.header_fill).toBe('FF0F4C5C');
    const flat = (r.rows as unknown[][]).flat().join('\n');
    expect(flat).toContain('Eleanor Whitcombe · e.whitcombe@ashgrove-vale.example · +44 20 7946 0321');
  });

  it('LibreOffice converts it', async () => {
    const dir = tempDir('svc-brand-lo-');
    const converted = await libreOfficeConvert(xlsx(), 'pdf', dir);
    expect(readFileSync(converted.path).subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);
});

describe('SOURCE_DATE_EPOCH with a brand', () => {
  it('two branded runs (a PNG logo, a firm font) write byte-identical PDF and xlsx files', async () => {
    const dir = tempDir('svc-brand-repro-');
    // The firm's font beside its brand file: paths stay in the brand file's folder (issue 35).
    copyFileSync(join(ROOT, 'reports/fonts/DejaVuSerif.ttf'), join(dir, 'DejaVuSerif.ttf'));
    const brand = writeBrand(dir, { firm_name: FIRM, logo: 'logo.png', primary_colour: '#0f4c5c', accent_colour: '#e9c46a', font_regular: 'DejaVuSerif.ttf', managers: 'managers.csv' });
    const holdings = join(dir, 'okafor-household.csv');
    writeFileSync(holdings, csvFile(watchRows(6)));
    const files = ['okafor-household-2026-10-31.pdf', 'okafor-household-2026-10-31.xlsx'];
    const bytes: Buffer[][] = [];
    for (const n of [1, 2]) {
      const o = join(dir, `out${n}`);
      const r = await runCli(['run', holdings, '--brand', brand, '--out', o, '--as-of', '2026-10-31', '--formats', 'pdf,xlsx'], serviceEnv(sb));
      expect(r.code, r.stderr).toBe(0);
      bytes.push(files.map((f) => readFileSync(join(o, f))));
    }
    expect(bytes[0]![0]!.equals(bytes[1]![0]!)).toBe(true);
    expect(bytes[0]![1]!.equals(bytes[1]![1]!)).toBe(true);
    // The firm's font is the one embedded for the regular text (DejaVu Serif in the sans role here).
    const fonts = await pdfFonts(join(dir, 'out1', files[0]!));
    expect(fonts).toMatch(/\+DejaVuSerif\s/);
  }, 180_000);
});
