/**
 * Issue 27: an asset id the service did not issue is not valued at a price made up from its
 * parts. The sandbox answers the spec's 404 with its error body (type not_found, the field, a
 * few ids it issued as allowed values); the client surfaces it as NotFoundError, for a single
 * valuation and for one item of a batch, whose other items are still valued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, type ServiceClient } from '../../src/client';
import { apiCalls, clientFor, readLog, start, watches, type Sandbox } from './helpers';

const UNKNOWN = 'SVC-WAT-NOSUCH-XYZ-2021';

let sb: Sandbox;
let client: ServiceClient;
beforeAll(async () => {
  sb = await start({ minuteMs: 1000 });
  client = clientFor(sb, 'demo-enterprise', { tier: 'enterprise', limits: { minuteMs: 1000 } });
});
afterAll(async () => {
  await sb.close();
});

describe('an asset id the service did not issue', () => {
  it('is a 404 with the error body naming asset_id and ids the service issued', async () => {
    const token = await (await fetch(`${sb.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'demo-enterprise', client_secret: 'demo-enterprise-secret', grant_type: 'client_credentials' }) })).json();
    const res = await fetch(`${sb.url}/valuations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${(token as { access_token: string }).access_token}` },
      body: JSON.stringify({ asset_id: UNKNOWN, segment: 'watches' }),
    });
    expect(res.status).toBe(404);
    const { error } = (await res.json()) as { error: { code: number; type: string; field: string; message: string; allowed_values: string[] } };
    expect(error).toMatchObject({ code: 404, type: 'not_found', field: 'asset_id' });
    expect(error.message).toContain(UNKNOWN);
    expect(error.allowed_values.length).toBeGreaterThan(0);
    for (const id of error.allowed_values) expect(id).toMatch(/^SVC-WAT-/);
  });

  it('is a NotFoundError from valuations.create, and the issued example is valued by id', async () => {
    const e = (await client.valuations.create({ asset_id: UNKNOWN, segment: 'watches' }).catch((x: unknown) => x)) as NotFoundError;
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.field).toBe('asset_id');
    const example = String(e.allowedValues![0]);
    expect((await client.valuations.create({ asset_id: example, segment: 'watches' })).asset_id).toBe(example);
  });

  it('in a batch, fails that item only (NotFoundError on asset_id); the others are valued', async () => {
    const described = watches(3, 'U');
    const before = apiCalls(await readLog(sb)).length;
    const out = await client.valueAll([described[0]!, { asset_id: UNKNOWN, segment: 'watches' as const }, ...described.slice(1)]);
    expect(out.map((o) => o.ok)).toEqual([true, false, true, true]);
    const failed = out[1] as { ok: false; error: NotFoundError };
    expect(failed.error).toBeInstanceOf(NotFoundError);
    expect(failed.error.field).toBe('asset_id');
    // One refused call naming the item, then the other three sent again: two calls, not one per item.
    const calls = apiCalls(await readLog(sb)).slice(before);
    expect(calls.map((c) => [c.path, c.status])).toEqual([
      ['/v1/valuations/batch', 404],
      ['/v1/valuations/batch', 200],
    ]);
  });

  it('an id the service issued for a description it does not list is valued by id afterwards', async () => {
    const issued = (await client.valuations.create({ segment: 'watches', brand: 'Obscure Maker', model: 'Tourbillon One', year: 2019 })).asset_id;
    expect((await client.valuations.create({ asset_id: issued, segment: 'watches' })).asset_id).toBe(issued);
  });
});
