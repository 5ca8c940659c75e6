import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, NotFoundError, RateLimitError, ConnectionError, DailyLimitExhaustedError } from '../../src/client';
import { startSandbox, DEMO_ACCOUNTS, type RunningSandbox } from '../../src/sandbox';
import { AddinRuntime, setRuntime } from '../../addin/src/shared/runtime';
import { clientBackend } from '../../addin/src/shared/client-backend';
import { toExcelError } from '../../addin/src/shared/excel-errors';
import { InputError } from '../../addin/src/shared/input-error';
import './custom-functions-globals';
import type { ExcelError } from './custom-functions-globals';
import * as F from '../../addin/src/functions/functions';
import { startUpstreamProxy, type UpstreamProxy } from './upstream-proxy';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { formatAssetId } from '../../src/wire';
import { catalogue, displayModel } from '../../src/sandbox/market/catalogue';

interface TestInvocation {
  onCanceled?: () => void;
  isInValuePreview?: boolean;
  setResult?: (v: unknown) => void;
}
const invocation = (extra: Partial<TestInvocation> = {}) => ({ ...extra }) as TestInvocation as CustomFunctions.CancelableInvocation;

async function settled(p: Promise<unknown>): Promise<{ ok: true; value: unknown } | { ok: false; code: string; message: string }> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    const err = e as ExcelError;
    return { ok: false, code: err.code, message: err.message ?? '' };
  }
}

let sandbox: RunningSandbox;
/** An id the sandbox issued for a catalogue asset (a multi-word brand, an accent or a size among the first), never typed by hand. */
let ROLEX: string;
let ids: string[];

function runtimeFor(tier: 'starter' | 'enterprise', baseUrl = sandbox.url): AddinRuntime {
  const a = DEMO_ACCOUNTS.find((x) => x.tier === tier)!;
  return new AddinRuntime(clientBackend(new ServiceClient({ baseUrl, clientId: a.client_id, clientSecret: a.client_secret, rateLimitKey: `functions-${tier}-${baseUrl}`, maxRetries: 0, timeoutMs: 3000 })));
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  ids = await realCatalogueIds(sandbox.url, DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!, 40);
  ROLEX = ids.find((id) => id.startsWith('SVC-WAT-'))!;
});

/**
 * A service that answers for another asset: the sandbox behind a proxy that renames one id in
 * its batch answers (the fault of issue 10, where the service rebuilt assets from ids' parts).
 */
function misnamingService(renamed: string): Promise<UpstreamProxy> {
  return startUpstreamProxy(sandbox.url, {
    rewrite: (path, body) => (path.endsWith('/valuations/batch') ? body.split(`"asset_id":"${renamed}"`).join('"asset_id":"SVC-WAT-SOMEONEELSE-X1"') : body),
  });
}

afterAll(async () => {
  setRuntime(undefined);
  await sandbox.close();
});

describe('SVC functions called as Excel calls them', () => {
  it('answers each function with its value type', async () => {
    setRuntime(runtimeFor('enterprise'));
    const mid = (await F.midValue(ROLEX, null as never, invocation())) as { type: string; basicValue: number; numberFormat: string };
    expect(mid).toMatchObject({ type: 'FormattedNumber', numberFormat: '[$$-en-US]#,##0' });
    const eur = (await F.midValue(ROLEX, 'eur', invocation())) as { numberFormat: string };
    expect(eur.numberFormat).toContain('€');
    expect(await F.score(ROLEX, invocation())).toEqual(expect.any(Number));
    const projected = (await F.projection(ROLEX, 24, 'optimistic', 'value', null as never, null as never, invocation())) as { basicValue: number };
    const conservative = (await F.projection(ROLEX, 24, 'conservative', 'value', null as never, null as never, invocation())) as { basicValue: number };
    expect(projected.basicValue).toBeGreaterThan(conservative.basicValue);
    const roi = (await F.projection(ROLEX, 12, null as never, 'roi', 10000, null as never, invocation())) as { numberFormat: string };
    expect(roi.numberFormat).toBe('0.0%');
    const net = (await F.exitNet(ROLEX, 'secondary', 'urgent', 20000, invocation())) as { basicValue: number };
    expect(net.basicValue).toBeLessThan(20000);
    expect(await F.signal('WAT', 'sentiment', invocation())).toEqual(expect.any(String));
    expect(await F.segmentDetail('Fine Wines', 'name', invocation())).toBe('Fine Wines');
    expect(await F.assetIdFor('art', 'Banksy', 'Girl with Balloon', null as never, 2004, null as never, invocation())).toMatch(/^SVC-ART-BANKSY-/);
  });

  it('SVC.ASSETID is the id the service answers for a description, and MIDVALUE of that id is the service\'s mid for it', async () => {
    setRuntime(runtimeFor('enterprise'));
    const a = DEMO_ACCOUNTS.find((x) => x.tier === 'enterprise')!;
    const client = new ServiceClient({ baseUrl: sandbox.url, clientId: a.client_id, clientSecret: a.client_secret, rateLimitKey: `functions-direct-${sandbox.url}` });
    // Descriptions whose id only the service knows: a longer reference than the catalogue's, no year, an alias with an accent, a size.
    const descriptions: [string, string, string, string | null, number | null, string | null][] = [
      ['watches', 'Patek Philippe', 'Nautilus', '5711/1A-010', 2017, null],
      ['watches', 'Rolex', 'Submariner Date', '126610LN', null, null],
      ...catalogue()
        .assets.filter((x) => x.size)
        .slice(0, 2)
        .map((x): [string, string, string, string | null, number | null, string | null] => [x.segment, x.brand, displayModel(x), x.reference ?? null, null, x.size!]),
      ['wine', 'Chateau Lafite Rothschild', 'Lafite Rothschild', null, 2018, null],
    ];
    let differsFromLocal = 0;
    for (const [segment, brand, model, reference, year, size] of descriptions) {
      const id = await F.assetIdFor(segment, brand, model, reference as never, year as never, size as never, invocation());
      const direct = await client.valuations.create({ segment: segment as 'watches', brand, model, reference: reference ?? undefined, year: year ?? undefined, size: size ?? undefined });
      expect(id, `${brand} ${model}`).toBe(direct.asset_id);
      if (id !== formatAssetId({ segment: segment as 'watches', brand, model, reference: reference ?? undefined, year: year ?? undefined, size: size ?? undefined })) differsFromLocal++;
      const mid = (await F.midValue(id, null as never, invocation())) as { basicValue: number };
      const byId = await client.valuations.create({ asset_id: id, segment: segment as 'watches' });
      expect(byId.asset_id).toBe(id);
      expect(mid.basicValue, id).toBe(byId.estimated_value.mid);
      // The cell's id was sent as asset_id: the answer it shows is for that very id.
      const [row] = (await F.valuation(id, null as never, null as never, invocation())) as unknown[][];
      expect(row!.at(-1)).toBe(id);
    }
    // The case SVC.ASSETID is about: ids a local spelling would get wrong.
    expect(differsFromLocal).toBeGreaterThan(0);
  });

  it('answers #N/A naming an asset id the service did not issue, with ids it did, instead of a made-up value (issue 27)', async () => {
    setRuntime(runtimeFor('enterprise'));
    const [unknown, known] = await Promise.all([settled(F.midValue('SVC-WAT-NOSUCH-XYZ-2021', null as never, invocation())), settled(F.midValue(ROLEX, null as never, invocation()))]);
    expect(unknown).toMatchObject({ ok: false, code: '#N/A', message: expect.stringMatching(/^Not found: asset_id 'SVC-WAT-NOSUCH-XYZ-2021' is not an asset id the service has issued; for example SVC-WAT-\S+/) });
    expect(known).toMatchObject({ ok: true });
  });

  it('answers #N/A "the service answered for another asset" instead of another asset\'s figure', async () => {
    const victim = ids[3]!;
    const service = await misnamingService(victim);
    try {
      setRuntime(runtimeFor('enterprise', service.url));
      const [wrong, right] = await Promise.all([settled(F.midValue(victim, null as never, invocation())), settled(F.midValue(ids[4]!, null as never, invocation()))]);
      expect(wrong).toMatchObject({ ok: false, code: '#N/A', message: expect.stringMatching(/^The service answered for another asset: asked .*, got SVC-WAT-SOMEONEELSE-X1/) });
      expect(right).toMatchObject({ ok: true });
    } finally {
      await service.close();
    }
  });

  it('answers a tier without the scope with #N/A naming why', async () => {
    setRuntime(runtimeFor('starter'));
    const r = await settled(F.expectedRoi(ROLEX, 12, 10000, invocation()));
    expect(r).toMatchObject({ ok: false, code: '#N/A' });
    expect((r as { message: string }).message).toMatch(/subscription does not include/i);
    expect(await settled(F.score(ROLEX, invocation()))).toMatchObject({ ok: true });
  });

  it('answers an unreachable service with #N/A, and every cell settles', async () => {
    setRuntime(runtimeFor('enterprise', 'http://127.0.0.1:9/v1'));
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => settled(F.midValue(ids[i]!, null as never, invocation()))));
    expect(results.every((r) => !r.ok && r.code === '#N/A')).toBe(true);
    expect((results[0] as { message: string }).message).toMatch(/unreachable/i);
  });

  it('releases a cancelled cell at once', async () => {
    setRuntime(runtimeFor('enterprise'));
    const inv = invocation();
    const pending = settled(F.factors(ids.find((id) => id.startsWith('SVC-ART-'))!, true, inv));
    inv.onCanceled();
    expect(await pending).toMatchObject({ ok: false, code: '#N/A', message: 'The calculation was cancelled.' });
  });

  it('streams alerts until cancelled', async () => {
    setRuntime(runtimeFor('enterprise'));
    const results: unknown[] = [];
    const preview = invocation({ isInValuePreview: true }) as unknown as CustomFunctions.StreamingInvocation<unknown[][]>;
    preview.setResult = (v) => results.push(v);
    F.alerts(null as never, null as never, preview);
    expect(results.pop()).toMatchObject({ code: '#N/A', message: expect.stringMatching(/preview/) });
    const inv = invocation() as unknown as CustomFunctions.StreamingInvocation<unknown[][]>;
    inv.setResult = (v) => results.push(v);
    F.alerts(null as never, null as never, inv);
    await expect.poll(() => results.length).toBe(1);
    expect((results[0] as unknown[][])[0]).toEqual(['severity', 'segment', 'title', 'message', 'expires_at']);
    F.alerts('watches', null as never, preview);
    expect((results.pop() as unknown[][])[0]).toEqual(['severity', 'segment', 'title', 'message', 'expires_at']);
    inv.onCanceled();
    const bad = invocation() as unknown as CustomFunctions.StreamingInvocation<unknown[][]>;
    bad.setResult = (v) => results.push(v);
    F.alerts(null as never, 0.5, bad);
    expect(results.at(-1)).toMatchObject({ code: '#VALUE!', message: 'refresh_minutes must be at least 1.' });
  });
});

describe('errors as cells show them', () => {
  it('maps each failure to #VALUE! or #N/A with a sentence', () => {
    expect(toExcelError(new InputError('horizon', 'horizon must be 12, 24, 36 (months).'))).toMatchObject({ code: '#VALUE!', message: 'horizon must be 12, 24, 36 (months).' });
    expect(toExcelError(new NotFoundError({ status: 404, type: 'not_found', message: 'No asset SVC-WAT-X-Y is known.' }))).toMatchObject({ code: '#N/A', message: 'Not found: No asset SVC-WAT-X-Y is known.' });
    expect(toExcelError(new ConnectionError({ status: 0, type: 'connection', message: 'connection refused' }))).toMatchObject({ code: '#N/A', message: 'The valuation service is unreachable: connection refused' });
    const spent = toExcelError(new DailyLimitExhaustedError({ resetAt: new Date('2026-11-22T00:00:00Z'), limit: 5000 }));
    expect(spent.code).toBe('#N/A');
    expect(spent.message).toMatch(/2026-11-22/);
    expect(toExcelError(new RateLimitError({ status: 429, type: 'rate_limited', message: 'slow down' }))).toMatchObject({ code: '#N/A' });
    const long = toExcelError(new InputError('x', 'y'.repeat(400)));
    expect(long.message!.length).toBe(255);
  });
});
