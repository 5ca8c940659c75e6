import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenResponse } from '../../src/wire';
import { buildBrowserClient } from '../../fixtures/browser-bundle';
import { apiCalls, readLog, start, valuedItems, type Sandbox } from './helpers';

let sb: Sandbox;
let page: Server;
let pageUrl: string;
let browser: Browser;
let bundle: string;

/** The task pane's page: a CSP that forbids eval, as an add-in may have, and the bundle as its only script. */
const HTML = `<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; connect-src *">
<script src="/client.js"></script>
</head><body>add-in</body></html>`;

const RECORD_VIOLATIONS = `;window.__violations=[];document.addEventListener('securitypolicyviolation',function(e){window.__violations.push(e.violatedDirective+' '+e.blockedURI)});`;

beforeAll(async () => {
  bundle = await buildBrowserClient();
  sb = await start({ minuteMs: 1000 });
  page = createServer((req, res) => {
    if (req.url === '/client.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(RECORD_VIOLATIONS + bundle);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(HTML);
    }
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => page?.close(r));
  await sb?.close();
});

describe('the client in a browser (Debian chromium)', () => {
  it('bundles for the browser platform with no Node built-ins and no credentials', () => {
    expect(bundle).not.toMatch(/\bnode:/);
    expect(bundle).not.toContain('demo-enterprise-secret');
    expect(bundle).toContain('ServiceClient');
  });

  it('values assets against the sandbox (CORS), under a CSP that forbids eval', async () => {
    // The add-in's host case: the host holds the credentials and hands the page a token.
    const res = await fetch(`${sb.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'demo-enterprise', client_secret: 'demo-enterprise-secret', grant_type: 'client_credentials' }),
    });
    const token = TokenResponse.parse(await res.json()).access_token;
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    const result = await tab.evaluate(
      async ({ baseUrl, token }) => {
        const { ServiceClient, BadRequestError } = (globalThis as unknown as { svc: typeof import('../../src/client') }).svc;
        const client = new ServiceClient({ baseUrl, tokenProvider: () => token, tier: 'enterprise', limits: { minuteMs: 1000 } });
        const items = Array.from({ length: 120 }, (_, i) => ({ segment: 'watches' as const, brand: 'Rolex', model: 'Daytona', reference: `B${i}` }));
        (items as unknown[])[5] = { segment: 'yachts', brand: 'Riva', model: 'Aquarama' };
        const progress: number[] = [];
        const out = await client.valueAll(items, { onProgress: (p) => progress.push(p.done) });
        const single = await client.valuations.create({ segment: 'art', artist: 'Banksy', title: 'Girl with Balloon' });
        const bad = out[5]!;
        return {
          ok: out.filter((o) => o.ok).length,
          firstId: out[0]!.ok ? out[0]!.value.asset_id : '',
          badIsTyped: !bad.ok && bad.error instanceof BadRequestError,
          badMessage: bad.ok ? '' : bad.error.message,
          single: single.asset_id,
          lastProgress: progress.at(-1),
          status: client.rateLimitStatus().minuteLimit,
          sandbox: client.servedBySandbox,
          violations: (globalThis as unknown as { __violations: string[] }).__violations,
        };
      },
      { baseUrl: sb.url, token },
    );
    await tab.close();
    expect(result.ok).toBe(119);
    expect(result.firstId).toMatch(/^SVC-WAT-ROLEX-B0/);
    expect(result.badIsTyped).toBe(true);
    expect(result.badMessage).toMatch(/^segment 'yachts' is not one of watches, art/);
    expect(result.single).toMatch(/^SVC-ART-BANKSY/);
    expect(result.lastProgress).toBe(120);
    // Rate headers are readable cross-origin (exposed by CORS) and taken in.
    expect(result.status).toBe(1000);
    expect(result.sandbox).toBe(true); // the x-sandbox header crossed CORS
    // zod never tried `new Function` (jitless chosen from the page's policy).
    expect(result.violations).toEqual([]);
    expect(valuedItems(apiCalls(await readLog(sb)))).toBe(119);
  });
});
