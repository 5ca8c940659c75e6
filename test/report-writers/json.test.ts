import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SCHEMA_VERSION, type Holding } from '../../reports/report-data';
import { writeJson } from '../../reports/writers/json';
import { writeDashboardJson } from '../../reports/writers/dashboard-json';
import { INJECTION_DESCRIPTIONS, makeDashboardData, makeReportData } from '../../fixtures/report-data';
import { tempDir } from './tools';

const schemaDir = path.resolve('reports/schema');
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(path.join(schemaDir, 'portfolio-report.schema.json'), 'utf8')));
const validateDashboard = ajv.compile(JSON.parse(readFileSync(path.join(schemaDir, 'market-dashboard.schema.json'), 'utf8')));

async function written(data: Parameters<typeof writeJson>[0]): Promise<Record<string, any>> {
  const file = path.join(tempDir('json'), 'report.json');
  await writeJson(data, file);
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('JSON writer', () => {
  const data = makeReportData({ holdings: 60, injections: true, errors: 4, previous: true });
  let doc: Record<string, any>;
  beforeAll(async () => {
    doc = await written(data);
  });

  it('validates against the shipped JSON Schema', () => {
    const ok = validateReport(doc);
    expect(validateReport.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('carries the version and the required top level', () => {
    expect(doc.schema_version).toBe(REPORT_SCHEMA_VERSION);
    expect(doc).toMatchObject({
      portfolio: { name: 'Whitcombe Family Collection' },
      as_of: '2026-10-31',
      generated_at: data.cover.generated_at,
      currency: 'USD',
      sandbox: true,
      summary: { asset_count: 60, total_invested: data.summary.total_invested, current_value: data.summary.current_value },
    });
    expect(typeof doc.summary.total_return_percent).toBe('number');
  });

  it('lists every holding with its input row, asset id and value, and every error', () => {
    const holdings = [...data.holdings] as Holding[];
    expect(doc.holdings.map((h: Holding) => [h.row, h.asset_id, h.current_value])).toEqual(holdings.map((h) => [h.row, h.asset_id, h.current_value]));
    expect(doc.errors).toEqual(data.errors);
    expect(doc.errors.some((e: { row: number | null }) => e.row === null)).toBe(true);
  });

  it('keeps text as data (JSON is not a spreadsheet: no quote prefix)', () => {
    expect(doc.holdings.slice(0, INJECTION_DESCRIPTIONS.length).map((h: Holding) => h.description)).toEqual(INJECTION_DESCRIPTIONS);
  });

  it('schema refuses a document missing what consumers rely on', () => {
    const broken = structuredClone(doc);
    delete broken.holdings[0].asset_id;
    broken.errors.push({ row: 'seven', field: 'x', message: 'y' });
    expect(validateReport(broken)).toBe(false);
    const paths = (validateReport.errors ?? []).map((e) => e.instancePath);
    expect(paths).toContain('/holdings/0');
    expect(paths).toContain('/errors/4/row');
    expect(validateReport({ ...doc, schema_version: '2.0.0' })).toBe(false);
  });

  it('writes omitted sections with their notes and an empty portfolio as valid documents', async () => {
    const starter = await written(makeReportData({ holdings: 0, starterTier: true }));
    expect(validateReport(starter)).toBe(true);
    expect(starter.holdings).toEqual([]);
    expect(starter.projections).toEqual({ included: false, note: 'Projections are not part of this report.' });
    // The technical reason is kept for the analyst.
    expect(starter.analyst_notes.join(' ')).toMatch(/403 Forbidden/);
    expect(starter.summary.month_on_month).toBeNull();
  });

  it('writes only the documented holding fields, whatever else the rows of a caller carry', async () => {
    const base = makeReportData({ holdings: 2 });
    const rows = ([...base.holdings] as Holding[]).map((h) => ({ ...h, internal_token: 'not for the report' }));
    const out = await written({ ...base, holdings: rows });
    expect(validateReport(out)).toBe(true);
    expect(JSON.stringify(out)).not.toContain('internal_token');
  });

  it('writes the market dashboard against its own schema', async () => {
    const file = path.join(tempDir('dash-json'), 'dashboard.json');
    await writeDashboardJson(makeDashboardData(), file);
    const dash = JSON.parse(readFileSync(file, 'utf8'));
    expect(validateDashboard(dash)).toBe(true);
    expect(dash.segments).toHaveLength(10);
  });
});
