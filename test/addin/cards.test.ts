import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ServiceClient } from '../../src/client';
import { openExcelIn, reportRequirementSets, useExcelStack } from './excel-harness';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';

const env = useExcelStack('cards', 3);


const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const serial = (iso: string) => (Date.parse(iso) - EXCEL_EPOCH_MS) / 86_400_000;

describe("SVC.ASSET under Microsoft's custom-functions runtime", () => {
  it('metadata allows data types from custom functions', async () => {
    expect(JSON.parse(await readFile(path.join(env.build.dist, 'functions.json'), 'utf8'))).toMatchObject({ allowCustomDataForDataTypeAny: true });
  });

  it("returns an entity card whose typed properties are the service's own answer for the same id", async () => {
    const context = await env.build.browser.newContext();
    try {
      const excel = await openExcelIn(context, env.stack.host.url);
      await reportRequirementSets(excel.frame, 1.17);
      const began = new Date(Date.now() - 1000).toISOString();
      const invocationIds = await excel.invoke(env.ids.map((id, i) => env.build.cell('ASSET', [id, i === 1 ? 'EUR' : null], `Sheet1!A${i + 1}`)));
      const results = await excel.results(invocationIds);

      const direct = new ServiceClient({ baseUrl: env.stack.sandboxUrl, clientId: env.stack.account.client_id, clientSecret: env.stack.account.client_secret, rateLimitKey: 'cards-expected' });
      for (const [i, id] of env.ids.entries()) {
        const currency = i === 1 ? 'EUR' : 'USD';
        const e = await direct.valuations.create({ ...requestForAssetId(holdingForAssetId('asset', id)), currency });
        const r = results[i]!;
        expect(r.ok, `${id}: ${r.message}`).toBe(true);
        const card = r.value as { type: string; text: string; properties: Record<string, { type: string; basicValue: unknown; numberFormat?: string }>; layouts: { card: { title: string; sections: { properties: string[] }[] } } };
        expect(card.type).toBe('Entity');
        expect(card.text).toBe(`${e.brand} ${e.model}`);
        expect(card.layouts.card.title).toBe(`${e.brand} ${e.model}`);
        const p = card.properties;
        expect(p.Mid).toEqual({ type: 'FormattedNumber', basicValue: e.estimated_value.mid, numberFormat: expect.stringContaining(currency === 'EUR' ? '€' : '$') });
        expect(p.Low).toMatchObject({ type: 'FormattedNumber', basicValue: e.estimated_value.low });
        expect(p.High).toMatchObject({ type: 'FormattedNumber', basicValue: e.estimated_value.high });
        expect(p.Confidence).toEqual({ type: 'FormattedNumber', basicValue: e.confidence, numberFormat: '0.0%' });
        expect(p.Score).toEqual({ type: 'Double', basicValue: e.service_score });
        expect(p.Momentum).toEqual({ type: 'String', basicValue: e.momentum });
        expect(p.Segment).toEqual({ type: 'String', basicValue: e.segment });
        expect(p['Asset id']).toEqual({ type: 'String', basicValue: id });
        expect(p['Market validated']).toEqual({ type: 'Boolean', basicValue: e.market_validated });
        expect(p['Data points']).toEqual({ type: 'Double', basicValue: e.data_points });
        // The card's answer was generated before the direct one (after the test began); validity ends at the same time.
        const asOf = p['As of']!.basicValue as number;
        expect(p['As of']).toMatchObject({ type: 'FormattedNumber', numberFormat: 'yyyy-mm-dd hh:mm "UTC"' });
        expect(asOf).toBeGreaterThanOrEqual(serial(began));
        expect(asOf).toBeLessThanOrEqual(serial(e.generated_at));
        expect(p['Valid until']).toMatchObject({ type: 'FormattedNumber' });
        expect(p['Valid until']!.basicValue).toBeCloseTo(serial(e.valid_until!), 8);
        expect(p.Source).toEqual({ type: 'String', basicValue: 'test sandbox (sandbox)' });
        // Value and provenance first.
        expect(card.layouts.card.sections[0]!.properties[0]).toBe('Mid');
        expect(card.layouts.card.sections[1]!.properties).toContain('Source');
        for (const s of card.layouts.card.sections) for (const name of s.properties) expect(p[name], name).toBeDefined();
      }
      await excel.close();
    } finally {
      await context.close();
    }
  });

  it('returns the valuation row where the host lacks ExcelApi 1.16', async () => {
    const context = await env.build.browser.newContext();
    try {
      const excel = await openExcelIn(context, env.stack.host.url);
      await reportRequirementSets(excel.frame, 1.15);
      const [id] = await excel.invoke([env.build.cell('ASSET', [env.ids[0]])]);
      const [r] = await excel.results([id!]);
      const row = (r!.value as unknown[][])[0]!;
      expect(row).toHaveLength(7);
      expect(row[6]).toBe(env.ids[0]);
      expect(row[0]).toMatchObject({ type: 'FormattedNumber' });
      await excel.close();
    } finally {
      await context.close();
    }
  });
});
