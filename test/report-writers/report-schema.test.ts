import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { holdingDocumentSchema, portfolioReportJsonSchema, portfolioReportSchema, portfolioReportSchemaText } from '../../reports/schema/portfolio-report';
import { writeJson } from '../../reports/writers/json';
import { HOLDING_COLUMNS } from '../../reports/writers/holding-columns';
import { makeReportData } from '../../fixtures/report-data';
import { tempDir } from './tools';

const committedPath = path.resolve('reports/schema/portfolio-report.schema.json');

async function written(data: Parameters<typeof writeJson>[0]): Promise<unknown> {
  const file = path.join(tempDir('schema'), 'report.json');
  await writeJson(data, file);
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('portfolio report JSON Schema, generated from the zod model', () => {
  it('the committed schema is the one the model generates', () => {
    const committed = readFileSync(committedPath, 'utf8');
    expect(committed, 'reports/schema/portfolio-report.schema.json is stale: regenerate with `npx tsx reports/schema/write-schema.ts`').toBe(
      portfolioReportSchemaText(),
    );
  });

  it('a holding in the model has exactly the writer\'s columns, in table order (the writer builds it key by key)', () => {
    expect(Object.keys(holdingDocumentSchema.shape)).toEqual(HOLDING_COLUMNS.map((c) => c.key));
  });

  it('keeps its identity: draft-07, $id, title', () => {
    expect(portfolioReportJsonSchema()).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://svc-luxury-valuations.example/schemas/portfolio-report-1.json',
      title: 'Month-end portfolio report',
      additionalProperties: false,
    });
  });

  it('real written reports (full, starter tier with sections left out, and with a history) pass both the generated schema (ajv, strict) and the zod model', async () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(portfolioReportJsonSchema());
    const docs = [
      await written(makeReportData({ holdings: 40, injections: true, errors: 3, previous: true })),
      await written(makeReportData({ holdings: 0, starterTier: true })),
      // With the portfolio's history (schema 1.3).
      await written(makeReportData({ holdings: 10, history: true })),
    ];
    for (const doc of docs) {
      const ok = validate(doc);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
      const parsed = portfolioReportSchema.safeParse(doc);
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
  });

  it('the generated schema refuses an undocumented field, a wrong enum and a missing one', async () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(portfolioReportJsonSchema());
    const doc = (await written(makeReportData({ holdings: 2 }))) as Record<string, any>;
    expect(validate({ ...doc, extra: 1 })).toBe(false);
    expect(validate({ ...doc, audience: 'public' })).toBe(false);
    const { summary: _dropped, ...withoutSummary } = doc;
    expect(validate(withoutSummary)).toBe(false);
    expect(validate({ ...doc, summary: { ...doc.summary, twr_from: '31/10/2026' } })).toBe(false);
  });
});
