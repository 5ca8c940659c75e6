import { beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ServiceClient } from '../../src/client';
import type { Valuation } from '../../src/wire';
import { cardOf, newestExcelApi, openExcelIn, reportRequirementSets, useExcelStack, type SetResult } from './excel-harness';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';

/**
 * SVC.ASSET on every Excel build, under Microsoft's runtime with the host's requirement sets
 * answered as each build answers them: ExcelApi 1.15 (no entity values: the valuation row
 * spills), 1.16 (cards, numbers as FormattedNumber), 1.19 (the first with a double's
 * numberFormat) and the newest set the Office typings document (cards, numbers as doubles with
 * a number format, no FormattedNumber anywhere).
 */
const env = useExcelStack('cards', 3);

let newest: string;
beforeAll(async () => {
  newest = await newestExcelApi();
});

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const serial = (iso: string) => (Date.parse(iso) - EXCEL_EPOCH_MS) / 86_400_000;

/** The cards' ids valued directly, as the service answers them (the first in EUR, as its cell asks). */
async function direct(): Promise<Valuation[]> {
  const client = new ServiceClient({ baseUrl: env.stack.sandboxUrl, clientId: env.stack.account.client_id, clientSecret: env.stack.account.client_secret, rateLimitKey: 'cards-expected' });
  return Promise.all(env.ids.map((id, i) => client.valuations.create({ ...requestForAssetId(holdingForAssetId('asset', id)), currency: i === 1 ? 'EUR' : 'USD' })));
}

/** The cards (the second in EUR) as Excel at ExcelApi `level` gets them. */
async function assetCellsAt(level: string): Promise<{ results: SetResult[] }> {
  const context = await env.build.browser.newContext();
  try {
    const excel = await openExcelIn(context, env.stack.host.url);
    await reportRequirementSets(excel.frame, level);
    const results = await excel.results(await excel.invoke(env.ids.map((id, i) => env.build.cell('ASSET', [id, i === 1 ? 'EUR' : null], `Sheet1!A${i + 1}`))));
    await excel.close();
    return { results };
  } finally {
    await context.close();
  }
}

/** Every typed value in a result, however deeply nested (a card's properties, a matrix's cells). */
function typedValues(value: unknown): { type: string; numberFormat?: string }[] {
  if (Array.isArray(value)) return value.flatMap(typedValues);
  if (value === null || typeof value !== 'object') return [];
  const own = 'type' in value && typeof (value as { type: unknown }).type === 'string' ? [value as { type: string; numberFormat?: string }] : [];
  return [...own, ...Object.values(value).flatMap(typedValues)];
}

/** What a number with a display format is on a build: FormattedNumber (1.16–1.18) or a double with a numberFormat (1.19+). */
type Style = 'FormattedNumber' | 'Double';

async function expectCards(level: string, style: Style) {
  const { results } = await assetCellsAt(level);
  const expected = await direct();
  for (const [i, id] of env.ids.entries()) {
    const e = expected[i]!;
    const currency = i === 1 ? 'EUR' : 'USD';
    const r = results[i]!;
    expect(r.ok, `${id}: ${r.message}`).toBe(true);
    // The declared matrix is one cell holding the card.
    expect(r.value).toHaveLength(1);
    expect((r.value as unknown[][])[0]).toHaveLength(1);
    const card = cardOf(r.value);
    expect(card.text).toBe(`${e.brand} ${e.model}`);
    expect(card.layouts.card.title).toBe(`${e.brand} ${e.model}`);
    const p = card.properties;
    expect(p.Mid).toEqual({ type: style, basicValue: e.estimated_value.mid, numberFormat: expect.stringContaining(currency === 'EUR' ? '€' : '$') });
    expect(p.Low).toEqual({ type: style, basicValue: e.estimated_value.low, numberFormat: p.Mid!.numberFormat });
    expect(p.High).toEqual({ type: style, basicValue: e.estimated_value.high, numberFormat: p.Mid!.numberFormat });
    expect(p.Confidence).toEqual({ type: style, basicValue: e.confidence, numberFormat: '0.0%' });
    expect(p.Score).toEqual({ type: 'Double', basicValue: e.service_score });
    expect(p.Momentum).toEqual({ type: 'String', basicValue: e.momentum });
    expect(p.Segment).toEqual({ type: 'String', basicValue: e.segment });
    expect(p['Asset id']).toEqual({ type: 'String', basicValue: id });
    expect(p['Market validated']).toEqual({ type: 'Boolean', basicValue: e.market_validated });
    expect(p['Data points']).toEqual({ type: 'Double', basicValue: e.data_points });
    // The card's answer was generated no later than the direct one (an earlier test's may be reused); validity ends at the same time.
    const asOf = p['As of']!.basicValue as number;
    expect(p['As of']).toMatchObject({ type: style, numberFormat: 'yyyy-mm-dd hh:mm "UTC"' });
    expect(asOf).toBeLessThanOrEqual(serial(e.generated_at));
    expect(asOf).toBeLessThan(p['Valid until']!.basicValue as number);
    expect(p['Valid until']).toMatchObject({ type: style, numberFormat: 'yyyy-mm-dd hh:mm "UTC"' });
    expect(p['Valid until']!.basicValue).toBeCloseTo(serial(e.valid_until!), 8);
    expect(p.Source).toEqual({ type: 'String', basicValue: 'test sandbox (sandbox)' });
    // Value and provenance first.
    expect(card.layouts.card.sections[0]!.properties[0]).toBe('Mid');
    expect(card.layouts.card.sections[1]!.properties).toContain('Source');
    for (const s of card.layouts.card.sections) for (const name of s.properties) expect(p[name], name).toBeDefined();

    const typed = typedValues(r.value);
    if (style === 'Double') expect(typed.filter((t) => t.type === 'FormattedNumber'), 'no FormattedNumber where doubles carry formats').toEqual([]);
    else expect(typed.filter((t) => t.type === 'Double' && t.numberFormat !== undefined), 'no numberFormat on a double before ExcelApi 1.19').toEqual([]);
  }
}

describe("SVC.ASSET on old and new Excel builds, under Microsoft's custom-functions runtime", () => {
  it('metadata allows data types from custom functions and declares the result a matrix, so the row of old builds spills', async () => {
    const json = JSON.parse(await readFile(path.join(env.build.dist, 'functions.json'), 'utf8')) as { allowCustomDataForDataTypeAny: boolean; functions: { id: string; result: { dimensionality?: string } }[] };
    expect(json.allowCustomDataForDataTypeAny).toBe(true);
    expect(json.functions.find((f) => f.id === 'ASSET')!.result).toEqual({ dimensionality: 'matrix' });
  });

  it('ExcelApi 1.15 (no entity values): the valuation row spills seven cells, plain numbers and text, the service\'s own answer', async () => {
    const { results } = await assetCellsAt('1.15');
    const expected = await direct();
    for (const [i, id] of env.ids.entries()) {
      const e = expected[i]!;
      const r = results[i]!;
      expect(r.ok, `${id}: ${r.message}`).toBe(true);
      // One row of seven cells: low, mid, high, currency, confidence, score, asset id.
      expect(r.value).toEqual([[e.estimated_value.low, e.estimated_value.mid, e.estimated_value.high, i === 1 ? 'EUR' : 'USD', e.confidence, e.service_score, id]]);
      // A build without ExcelApi 1.16 has no formatted numbers or entities either: nothing typed in the row.
      expect(typedValues(r.value)).toEqual([]);
    }
  });

  it('ExcelApi 1.16: a card whose formatted numbers are FormattedNumber values', async () => {
    await expectCards('1.16', 'FormattedNumber');
  });

  it('ExcelApi 1.18 still FormattedNumber; 1.19, the set that added a double\'s numberFormat, doubles', async () => {
    const [before, at] = [await assetCellsAt('1.18'), await assetCellsAt('1.19')];
    expect(cardOf(before.results[0]!.value).properties.Mid!.type).toBe('FormattedNumber');
    expect(cardOf(at.results[0]!.value).properties.Mid).toMatchObject({ type: 'Double', numberFormat: expect.stringContaining('$') });
  });

  it('the newest ExcelApi the runtime knows: doubles with a number format, no FormattedNumber anywhere in the card', async () => {
    // 1.21 as this is written; at least the set that brought formatted doubles.
    expect(Number(newest.split('.')[1])).toBeGreaterThanOrEqual(19);
    await expectCards(newest, 'Double');
  });
});
