/**
 * Issue 28 at the writers: the dashboard (PDF and xlsx) and the internal consolidated PDF in a
 * firm's brand stay PDF/A-3a and PDF/UA-1, tagged, fonts embedded; the dashboard carries the
 * firm's disclosures and the firm in its workbook's properties.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDashboardData, makeReportData } from '../../fixtures/report-data';
import { loadBrand } from '../../src/brand';
import { writeDashboardPdf } from '../../reports/writers/dashboard-pdf';
import { writeDashboardXlsx } from '../../reports/writers/dashboard-xlsx';
import { writePdf } from '../../reports/writers/pdf';
import { readStructure } from '../report-writers/pdf-structure';
import { expectArchivalAndTagged } from '../report-writers/pdf-archival';
import { folded, pdfFonts, pdfText, tempDir } from '../report-writers/tools';
import { EXAMPLE_BRAND, FIRM } from './brand-files';

const brand = loadBrand(EXAMPLE_BRAND);

async function expectFontsEmbedded(file: string): Promise<void> {
  const fonts = (await pdfFonts(file)).split('\n').slice(2).filter(Boolean);
  expect(fonts.length).toBeGreaterThan(1);
  for (const line of fonts) expect(line).toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+$/);
}

describe('branded dashboard and consolidated report', () => {
  it('the dashboard PDF: archival and tagged, the firm in its header, its disclosures at the end', async () => {
    const file = path.join(tempDir('brand-dash'), 'market-dashboard-2026-10-31.pdf');
    await writeDashboardPdf({ ...makeDashboardData(), brand }, file);
    expectArchivalAndTagged(await readStructure(file), 'en-GB', { logoAlt: FIRM });
    const text = folded(await pdfText(file));
    expect(text).toContain(`${FIRM} · Market dashboard`);
    expect(text).toContain('Disclosures — Ashgrove & Vale Private Wealth');
    expect(text).toContain('Financial Ombudsman Service');
    await expectFontsEmbedded(file);
    // The JSON embedded in it (as the JSON writer writes it) is dashboard data only, valid against its schema.
    const json = JSON.parse(execFileSync('qpdf', ['--show-attachment=market-dashboard-2026-10-31.json', file], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(json).not.toHaveProperty('brand');
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(path.resolve('reports/schema/market-dashboard.schema.json'), 'utf8')));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
  }, 120_000);

  it('the dashboard workbook names the firm as creator and keeps its disclosures on the Notes sheet', async () => {
    const file = path.join(tempDir('brand-dash-xlsx'), 'market-dashboard-2026-10-31.xlsx');
    await writeDashboardXlsx({ ...makeDashboardData(), brand }, file);
    const script = 'import json, sys, openpyxl\nwb = openpyxl.load_workbook(sys.argv[1])\nprint(json.dumps([wb.properties.creator, "\\n".join(str(r[0]) for r in wb["Notes"].iter_rows(values_only=True))]))';
    const [creator, notes] = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as [string, string];
    expect(creator).toBe(FIRM);
    expect(notes).toContain('Financial Conduct Authority');
  }, 60_000);

  it('the internal consolidated PDF: the logo a Figure named by the firm, no relationship manager, archival and tagged', async () => {
    const file = path.join(tempDir('brand-consolidated'), 'consolidated-2026-10-31.pdf');
    await writePdf({ ...makeReportData({ holdings: 30, consolidated: ['Okafor Household', 'Tanaka Collection'] }), brand }, file);
    const s = await readStructure(file);
    expectArchivalAndTagged(s, 'en-GB', { logoAlt: FIRM });
    expect(s.elements.filter((e) => e.type === 'Figure' && e.alt === FIRM)).toHaveLength(1);
    const text = folded(await pdfText(file));
    expect(text).toContain('INTERNAL FIRM REPORT — NOT FOR CLIENTS');
    expect(text).not.toContain('PRIVATE CLIENT VALUATION');
    expect(text).not.toMatch(/RELATIONSHIP MANAGER/);
    await expectFontsEmbedded(file);
  }, 120_000);
});
