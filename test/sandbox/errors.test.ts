import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEGMENT_IDS } from '../../src/wire';
import { call, errorOf, getToken, start, type Sandbox } from './helpers';

const watch = { segment: 'watches', brand: 'Rolex', model: 'Submariner', reference: '126610LN', year: 2020 };
const holding = { segment: 'watches', brand: 'Rolex', model: 'Submariner', purchase_price: 9000, purchase_date: '2021-05-03' };

let sb: Sandbox;
let ent: string;
let starter: string;

beforeAll(async () => {
  sb = await start();
  ent = (await getToken(sb.url, 'demo-enterprise')).access_token;
  starter = (await getToken(sb.url, 'demo-starter')).access_token;
});
afterAll(() => sb.close());

/** Asserts the service's error body and returns it. */
async function expectError(status: number, type: string, method: string, path: string, opts: Parameters<typeof call>[3] = {}) {
  const r = await call(sb.url, method, path, { token: ent, ...opts });
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  const e = errorOf(r);
  expect(e.code).toBe(status);
  expect(e.type).toBe(type);
  expect(e.message.length).toBeGreaterThan(5);
  expect(e.documentation).toBe(`https://docs.sandbox.invalid/errors#${type}`);
  expect(e.action).toBeTruthy();
  expect(JSON.stringify(r.json)).not.toMatch(/at .*\.ts:\d+/); // no stack traces
  return { e, r };
}

describe('400 validation errors name the field', () => {
  it('unknown segment lists the ten ids', async () => {
    const { e } = await expectError(400, 'validation_error', 'POST', '/valuations', { body: { ...watch, segment: 'boats' } });
    expect(e.field).toBe('segment');
    expect(e.allowed_values).toEqual([...SEGMENT_IDS]);
    expect(e.action).toBe('check_body');
  });

  it('a bad item of a batch is named by index: assets[3].segment', async () => {
    const assets = [watch, watch, watch, { ...watch, segment: 'yachts' }, watch];
    const { e } = await expectError(400, 'validation_error', 'POST', '/valuations/batch', { body: { assets } });
    expect(e.field).toBe('assets[3].segment');
    expect(e.allowed_values).toEqual([...SEGMENT_IDS]);
  });

  it('a batch of 51 is refused on the assets field', async () => {
    const assets = Array.from({ length: 51 }, (_, i) => ({ ...watch, reference: `R${i}` }));
    const { e } = await expectError(400, 'validation_error', 'POST', '/valuations/batch', { body: { assets } });
    expect(e.field).toBe('assets');
    expect(e.message).toMatch(/at most 50/);
  });

  it('a missing model, a wrong type and an unknown condition', async () => {
    expect((await expectError(400, 'validation_error', 'POST', '/valuations', { body: { segment: 'watches', brand: 'Rolex' } })).e.field).toBe('model');
    expect((await expectError(400, 'validation_error', 'POST', '/valuations', { body: { ...watch, year: 'twenty' } })).e.field).toBe('year');
    const { e } = await expectError(400, 'validation_error', 'POST', '/valuations', { body: { ...watch, condition: 'mint' } });
    expect(e.field).toBe('condition');
    expect(e.allowed_values).toEqual(['excellent', 'very_good', 'good', 'fair']);
  });

  it('bad dates and negative prices in a portfolio', async () => {
    const bad = (h: object) => ({ name: 'P', assets: [holding, { ...holding, ...h }] });
    expect((await expectError(400, 'validation_error', 'POST', '/portfolio', { body: bad({ purchase_date: '2023-02-30' }) })).e.field).toBe('assets[1].purchase_date');
    expect((await expectError(400, 'validation_error', 'POST', '/portfolio', { body: bad({ purchase_date: '03/05/2021' }) })).e.field).toBe('assets[1].purchase_date');
    expect((await expectError(400, 'validation_error', 'POST', '/portfolio', { body: bad({ purchase_price: -1 }) })).e.field).toBe('assets[1].purchase_price');
  });

  it('horizons other than 12, 24, 36 and non-positive values', async () => {
    const asset_id = 'SVC-WAT-ROLEX-126610LN-2020';
    expect((await expectError(400, 'validation_error', 'POST', '/projections', { body: { asset_id, current_value: 1000, horizons: [12, 18] } })).e.field).toBe('horizons[1]');
    expect((await expectError(400, 'validation_error', 'POST', '/projections', { body: { asset_id, current_value: -5 } })).e.field).toBe('current_value');
    expect((await expectError(400, 'validation_error', 'POST', '/exit', { body: { asset_id, current_value: 1000, urgency: 'asap' } })).e.field).toBe('urgency');
  });

  it('an asset id that is not one is a 400 on asset_id', async () => {
    expect((await expectError(400, 'validation_error', 'POST', '/scores/breakdown', { body: { asset_id: 'not-an-id' } })).e.field).toBe('asset_id');
    const { e } = await expectError(400, 'validation_error', 'POST', '/scores/batch', { body: { assets: [{ asset_id: 'SVC-WAT-ROLEX-126610LN' }, { asset_id: '??' }] } });
    expect(e.field).toBe('assets[1].asset_id');
  });

  it('path and query segments are validated', async () => {
    for (const path of ['/segments/boats', '/signals/boats', '/exit/channels?segment=boats']) {
      const { e } = await expectError(400, 'validation_error', 'GET', path);
      expect(e.field).toBe('segment');
      expect(e.allowed_values).toEqual([...SEGMENT_IDS]);
    }
  });

  it('malformed JSON is a 400 with an empty field', async () => {
    const { e } = await expectError(400, 'validation_error', 'POST', '/valuations', { body: '{"segment": "watches",' });
    expect(e.field).toBe('');
    expect(e.message).toMatch(/JSON/);
  });

  it('odd JSON bodies are 400s, never 500s', async () => {
    for (const body of ['null', '[]', '"text"', '42', '{"assets": null}', '{"assets": [null]}', '{"assets": {"0": {}}}']) {
      const r = await call(sb.url, 'POST', '/valuations/batch', { token: ent, body });
      expect(r.status, body).toBe(400);
      expect(errorOf(r).type).toBe('validation_error');
    }
    const empty = await call(sb.url, 'POST', '/valuations', { token: ent });
    expect(empty.status).toBe(400);
  });

  it('x-sandbox-as-of must be a past or present real day', async () => {
    expect((await expectError(400, 'validation_error', 'GET', '/segments', { headers: { 'x-sandbox-as-of': '2999-01-01' } })).e.field).toBe('x-sandbox-as-of');
    expect((await expectError(400, 'validation_error', 'GET', '/segments', { headers: { 'x-sandbox-as-of': '2024-13-01' } })).e.field).toBe('x-sandbox-as-of');
  });

  it('a body that is not JSON by Content-Type is a 415', async () => {
    await expectError(415, 'unsupported_media_type', 'POST', '/valuations', { body: 'segment=watches', headers: { 'content-type': 'text/plain' } });
  });
});

describe('413, 404, 405, 403', () => {
  it('a body over 1 MiB is a 413', async () => {
    const big = JSON.stringify({ ...watch, model: 'x'.repeat(1024 * 1024 + 10) });
    const { e, r } = await expectError(413, 'payload_too_large', 'POST', '/valuations', { body: big });
    expect(e.message).toMatch(/1 MiB/);
    expect(r.headers.get('connection')).toBe('close');
    // The sandbox is still serving.
    expect((await call(sb.url, 'GET', '/segments', { token: ent })).status).toBe(200);
  });

  it('a chunked body far over 1 MiB is cut off at the drain bound', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 1000) c.enqueue(chunk);
        else c.close();
      },
    });
    const res = await fetch(sb.url + '/valuations', {
      method: 'POST',
      headers: { authorization: `Bearer ${ent}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit).catch((e: Error) => e);
    // Past the bound a refused body is read to (16 MiB), the connection is closed: the 413 may
    // or may not arrive, never a 2xx.
    if (res instanceof Response) expect(res.status).toBe(413);
    // The server stopped reading at its bound: about 17 MiB (1 MiB, then 16 drained) of the 64 MiB offered,
    // plus what the sockets' buffers held.
    expect(sent * 64 * 1024).toBeLessThan(24 * 1024 * 1024);
  });

  it('unknown paths and ids are 404', async () => {
    await expectError(404, 'not_found', 'GET', '/nothing-here');
    await expectError(404, 'not_found', 'GET', '/valuations/val_000000000000000000000000');
    await expectError(404, 'not_found', 'GET', '/projections/proj_missing');
    await expectError(404, 'not_found', 'GET', '/portfolio/port_missing');
    await expectError(404, 'not_found', 'GET', '/portfolio/port_missing/performance');
    await expectError(404, 'not_found', 'PUT', '/portfolio/port_missing', { body: { name: 'x' } });
    const outside = await call(sb.url.replace(/\/v1$/, ''), 'GET', '/segments', { token: ent });
    expect(outside.status).toBe(404);
    // The payments side named in the change history is not served.
    await expectError(404, 'not_found', 'POST', '/api/v1/payment-requests', { body: { amount: 1 } });
  });

  it('a known path with the wrong method is a 405 with Allow', async () => {
    const { r } = await expectError(405, 'method_not_allowed', 'DELETE', '/segments');
    expect(r.headers.get('allow')).toBe('GET');
    const put = await expectError(405, 'method_not_allowed', 'GET', '/valuations');
    expect(put.r.headers.get('allow')).toBe('POST');
  });

  it('a starter token calling /exit is a 403 forbidden with check_tier', async () => {
    const r = await call(sb.url, 'POST', '/exit', { token: starter, body: { asset_id: 'SVC-WAT-ROLEX-126610LN', current_value: 1000 } });
    expect(r.status).toBe(403);
    const e = errorOf(r);
    expect(e.type).toBe('forbidden');
    expect(e.action).toBe('check_tier');
    expect(e.message).toMatch(/exit/);
    for (const [m, p] of [['GET', '/exit/channels'], ['GET', '/portfolio/port_x'], ['POST', '/projections']] as const) {
      expect((await call(sb.url, m, p, { token: starter, body: m === 'POST' ? {} : undefined })).status, p).toBe(403);
    }
    // Reference data needs no scope.
    expect((await call(sb.url, 'GET', '/segments', { token: starter })).status).toBe(200);
  });
});

describe('500 internal_error', () => {
  it('an unexpected failure inside the sandbox is a 500 without internals, and the sandbox keeps serving', async () => {
    // A broken clock (an invalid Date) makes every dated answer throw deep inside the server.
    const broken = await start({ now: () => new Date(Number.NaN) });
    try {
      const t = (await getToken(broken.url, 'demo-pro')).access_token;
      for (let i = 0; i < 2; i++) {
        const r = await call(broken.url, 'GET', '/segments', { token: t });
        expect(r.status).toBe(500);
        const e = errorOf(r);
        expect(e.type).toBe('internal_error');
        expect(e.action).toBe('retry_with_backoff');
        const text = JSON.stringify(r.json);
        expect(text).not.toMatch(/RangeError|Invalid time value|\.ts:\d+|at [\w.]+ \(/);
        expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      }
    } finally {
      await broken.close();
    }
  });
});

describe('unknown paths with a valid token', () => {
  it('carry the account budget headers and spend nothing', async () => {
    const a = await call(sb.url, 'GET', '/nothing-here', { token: ent });
    const b = await call(sb.url, 'GET', '/nothing-here', { token: ent });
    expect(a.status).toBe(404);
    expect(a.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(b.headers.get('x-ratelimit-remaining')).toBe(a.headers.get('x-ratelimit-remaining'));
  });
});
