import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, getToken, start, type Sandbox } from './helpers';

/** Issue 16: every sandbox answer says it is one, readable by a browser client too. */
let sb: Sandbox;
let token: string;
beforeAll(async () => {
  // A minute window of ten years: the five spending calls below can never straddle two windows.
  sb = await start({
    minuteMs: 10 * 365 * 86_400_000,
    accounts: [
      { client_id: 'tiny', client_secret: 'tiny-secret', tier: 'starter', per_minute: 5 },
      { client_id: 'browser', client_secret: 'browser-secret', tier: 'pro' },
    ],
  });
  token = (await getToken(sb.url, 'tiny')).access_token;
});
afterAll(() => sb.close());

const marked = (h: Headers) => h.get('x-sandbox');

describe('x-sandbox: true on every answer', () => {
  it('successes, token answers, errors of every kind and preflights', async () => {
    const replies = {
      token: await call(sb.url, 'POST', '/auth/token', { body: { client_id: 'tiny', client_secret: 'tiny-secret', grant_type: 'client_credentials' } }),
      badSecret: await call(sb.url, 'POST', '/auth/token', { body: { client_id: 'tiny', client_secret: 'nope', grant_type: 'client_credentials' } }),
      refresh401: await call(sb.url, 'POST', '/auth/refresh', { body: { refresh_token: 'rt_x', grant_type: 'refresh_token' } }),
      ok: await call(sb.url, 'GET', '/segments', { token }),
      validation: await call(sb.url, 'GET', '/segments/boats', { token }),
      unauthorised: await call(sb.url, 'GET', '/segments'),
      forbidden: await call(sb.url, 'GET', '/exit/channels', { token }),
      notFound: await call(sb.url, 'GET', '/nowhere', { token }),
      outsideBase: await call(sb.url.replace(/\/v1$/, ''), 'GET', '/x'),
      methodNotAllowed: await call(sb.url, 'DELETE', '/segments', { token }),
      unsupported: await call(sb.url, 'POST', '/valuations', { token, body: 'x', headers: { 'content-type': 'text/plain' } }),
      tooLarge: await call(sb.url, 'POST', '/valuations', { token, body: JSON.stringify({ brand: 'x'.repeat(1024 * 1024 + 1) }) }),
      rateLimited: await call(sb.url, 'GET', '/segments', { token }),
      openapi: await call(sb.url, 'GET', '/openapi.json'),
    };
    expect(replies.rateLimited.status).toBe(429);
    expect(new Set(Object.values(replies).map((r) => r.status))).toEqual(new Set([200, 400, 401, 403, 404, 405, 413, 415, 429]));
    for (const [what, r] of Object.entries(replies)) expect(marked(r.headers), what).toBe('true');

    const preflight = await fetch(`${sb.url}/segments`, { method: 'OPTIONS', headers: { origin: 'https://addin.example', 'access-control-request-method': 'GET' } });
    expect(marked(preflight.headers)).toBe('true');
  });

  it('a 500 is marked too', async () => {
    const broken = await start({ now: () => new Date(Number.NaN) });
    try {
      const t = (await getToken(broken.url, 'demo-pro')).access_token;
      const r = await call(broken.url, 'GET', '/segments', { token: t });
      expect(r.status).toBe(500);
      expect(marked(r.headers)).toBe('true');
    } finally {
      await broken.close();
    }
  });

  it('is exposed to CORS, so a page on another origin reads it (in chromium)', async () => {
    const page = createServer((_, res) => res.end('<!doctype html><title>other origin</title>'));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
      const tab = await browser.newPage();
      await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
      const fresh = (await getToken(sb.url, 'browser')).access_token;
      const seen = await tab.evaluate(
        async ({ url, t }) => {
          const r = await fetch(`${url}/segments`, { headers: { authorization: `Bearer ${t}` } });
          return { status: r.status, sandbox: r.headers.get('x-sandbox') };
        },
        { url: sb.url, t: fresh },
      );
      expect(seen).toEqual({ status: 200, sandbox: 'true' });
    } finally {
      await browser?.close();
      await new Promise((r) => (page as Server).close(r));
    }
  });
});
