import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { RATE_HEADERS } from '../../src/wire';
import { call, errorOf, getToken, start, type Reply, type Sandbox } from './helpers';

const MINUTE_MS = 500;
/** The rate windows run on this clock: the test moves it, so no window rolls over by itself on a loaded machine. */
let clock = 1_800_000_000_000;
let sb: Sandbox;

beforeAll(async () => {
  sb = await start({
    minuteMs: MINUTE_MS,
    clockMs: () => clock,
    storeLimit: 2,
    accounts: [
      { client_id: 'small', client_secret: 'small-secret', tier: 'starter', per_minute: 3, per_day: 1000 },
      { client_id: 'daily', client_secret: 'daily-secret', tier: 'starter', per_minute: 100, per_day: 3 },
      { client_id: 'alice', client_secret: 'alice-secret', tier: 'pro' },
      { client_id: 'bob', client_secret: 'bob-secret', tier: 'pro' },
      { client_id: 'ent', client_secret: 'ent-secret', tier: 'enterprise' },
    ],
  });
});
afterAll(() => sb.close());

/** Moves the clock to the start of the next window. */
const nextWindow = () => {
  clock = (Math.floor(clock / MINUTE_MS) + 1) * MINUTE_MS;
};
const n = (h: Headers, name: string) => Number(h.get(name));

describe('rate limits', () => {
  it('counts per account over fixed windows, refuses with 429 + Retry-After, and refused calls spend nothing', async () => {
    const token = (await getToken(sb.url, 'small')).access_token;
    const other = (await getToken(sb.url, 'small')).access_token; // same account, second token: shared budget
    nextWindow();
    clock += 100; // 400 ms of the window left
    const replies = [];
    for (const t of [token, other, token, token, other]) replies.push(await call(sb.url, 'GET', '/segments', { token: t }));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(replies.map((r) => n(r.headers, RATE_HEADERS.remaining))).toEqual([2, 1, 0, 0, 0]);
    for (const r of replies) {
      expect(n(r.headers, RATE_HEADERS.limit)).toBe(3);
      expect(n(r.headers, RATE_HEADERS.dayLimit)).toBe(1000);
    }
    const [, , third, refused, again] = replies as [Reply, Reply, Reply, Reply, Reply];
    const e = errorOf(refused);
    expect(e.type).toBe('rate_limited');
    expect(e.action).toBe('retry_later');
    expect(refused.headers.get('retry-after')).toBe('1');
    // Epoch seconds of the window's end, rounded up.
    expect(n(refused.headers, RATE_HEADERS.reset)).toBe(Math.ceil((Math.floor(clock / MINUTE_MS) + 1) * MINUTE_MS / 1000));
    // Refusals spend nothing from the day either.
    expect(n(refused.headers, RATE_HEADERS.dayRemaining)).toBe(n(third.headers, RATE_HEADERS.dayRemaining));
    expect(n(again.headers, RATE_HEADERS.dayRemaining)).toBe(n(third.headers, RATE_HEADERS.dayRemaining));

    nextWindow();
    const next = await call(sb.url, 'GET', '/segments', { token });
    expect(next.status).toBe(200);
    expect(n(next.headers, RATE_HEADERS.remaining)).toBe(2);
    // Errors count too (every authenticated call), and carry the headers.
    const bad = await call(sb.url, 'GET', '/segments/boats', { token });
    expect(bad.status).toBe(400);
    expect(n(bad.headers, RATE_HEADERS.dayRemaining)).toBe(n(next.headers, RATE_HEADERS.dayRemaining) - 1);
  });

  it('refuses for the rest of the day once the daily budget is spent', async () => {
    const token = (await getToken(sb.url, 'daily')).access_token;
    for (let i = 0; i < 3; i++) expect((await call(sb.url, 'GET', '/segments', { token })).status).toBe(200);
    const dayOut = await call(sb.url, 'GET', '/segments', { token });
    expect(dayOut.status).toBe(429);
    expect(errorOf(dayOut).message).toMatch(/daily limit/);
    // The day window is long: Retry-After points at its end, far beyond a minute window.
    expect(n(dayOut.headers, 'retry-after')).toBeGreaterThan(1);
    expect(n(dayOut.headers, RATE_HEADERS.dayRemaining)).toBe(0);
    expect(n(dayOut.headers, RATE_HEADERS.dayReset)).toBe(Math.ceil((Math.floor(clock / 86_400_000) + 1) * 86_400));
  });

  it('token issuance is not counted and carries no budget headers', async () => {
    const r = await call(sb.url, 'POST', '/auth/token', { body: { client_id: 'small', client_secret: 'small-secret', grant_type: 'client_credentials' } });
    expect(r.status).toBe(200);
    expect(r.headers.get(RATE_HEADERS.limit)).toBeNull();
  });

  it('enterprise accounts without limits get the enterprise default', async () => {
    const r = await call(sb.url, 'GET', '/segments', { token: (await getToken(sb.url, 'ent')).access_token });
    expect(n(r.headers, RATE_HEADERS.limit)).toBe(1000);
    expect(n(r.headers, RATE_HEADERS.dayLimit)).toBe(500_000);
  });
});

describe('CORS', () => {
  it('answers preflights with 204, uncounted, and exposes the rate headers', async () => {
    // An hour-long window, so no roll-over can happen between the two counted calls.
    const sb = await start({ minuteMs: 3_600_000 });
    onTestFinished(() => sb.close());
    const token = (await getToken(sb.url, 'demo-pro')).access_token;
    const before = await call(sb.url, 'GET', '/segments', { token, headers: { origin: 'https://addin.example' } });
    expect(before.headers.get('access-control-allow-origin')).toBe('https://addin.example');
    const exposed = before.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const h of [...Object.values(RATE_HEADERS), 'retry-after']) expect(exposed).toContain(h);

    for (let i = 0; i < 3; i++) {
      const pre = await fetch(sb.url + '/valuations/batch', {
        method: 'OPTIONS',
        headers: { origin: 'https://addin.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-sandbox-as-of' },
      });
      expect(pre.status).toBe(204);
      const allowed = pre.headers.get('access-control-allow-headers')!.toLowerCase();
      for (const h of ['authorization', 'content-type', 'x-sandbox-mode', 'x-cli-key', 'x-sandbox-as-of']) expect(allowed).toContain(h);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://addin.example');
      expect(pre.headers.get('access-control-allow-methods')).toContain('PUT');
    }
    const after = await call(sb.url, 'GET', '/segments', { token });
    expect(after.headers.get('access-control-allow-origin')).toBe('*');
    expect(n(after.headers, RATE_HEADERS.remaining)).toBe(n(before.headers, RATE_HEADERS.remaining) - 1);
  });
});

describe('isolation between accounts', () => {
  it("another account's portfolio, valuation and projection are 404s", async () => {
    const a = (await getToken(sb.url, 'alice')).access_token;
    const b = (await getToken(sb.url, 'bob')).access_token;
    const port = await call(sb.url, 'POST', '/portfolio', {
      token: a,
      body: { name: 'Alice', assets: [{ segment: 'watches', brand: 'Rolex', model: 'Daytona', purchase_price: 20000, purchase_date: '2020-01-15' }] },
    });
    expect(port.status).toBe(201);
    const val = await call(sb.url, 'POST', '/valuations', { token: a, body: { segment: 'bags', brand: 'Hermes', model: 'Birkin 30' } });
    const proj = await call(sb.url, 'POST', '/projections', { token: a, body: { asset_id: 'SVC-BAG-HERMES-BIRKIN30', current_value: 15000 } });
    const ids = {
      portfolio: (port.json as { portfolio: { id: string } }).portfolio.id,
      valuation: (val.json as { id: string }).id,
      projection: (proj.json as { projection: { id: string } }).projection.id,
    };
    const paths = [`/portfolio/${ids.portfolio}`, `/portfolio/${ids.portfolio}/performance`, `/valuations/${ids.valuation}`, `/projections/${ids.projection}`];
    for (const p of paths) {
      expect((await call(sb.url, 'GET', p, { token: a })).status, p).toBe(200);
      const other = await call(sb.url, 'GET', p, { token: b });
      expect(other.status, p).toBe(404);
      expect(errorOf(other).type).toBe('not_found');
    }
    const put = await call(sb.url, 'PUT', `/portfolio/${ids.portfolio}`, { token: b, body: { name: 'Mine now' } });
    expect(put.status).toBe(404);
    const still = await call(sb.url, 'GET', `/portfolio/${ids.portfolio}`, { token: a });
    expect((still.json as { portfolio: { name: string } }).portfolio.name).toBe('Alice');
  });

  it('keeps only the most recent records per kind per account', async () => {
    const token = (await getToken(sb.url, 'bob')).access_token;
    const ids: string[] = [];
    for (const model of ['Birkin 25', 'Birkin 30', 'Kelly 28']) {
      const r = await call(sb.url, 'POST', '/valuations', { token, body: { segment: 'bags', brand: 'Hermes', model } });
      ids.push((r.json as { id: string }).id);
    }
    const status = async (id: string) => (await call(sb.url, 'GET', `/valuations/${id}`, { token })).status;
    expect(await status(ids[0]!)).toBe(404);
    expect(await status(ids[1]!)).toBe(200);
    expect(await status(ids[2]!)).toBe(200);
  });
});
