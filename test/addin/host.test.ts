import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import https from 'node:https';
import ExcelJS from 'exceljs';
import { buildAddin } from '../../addin/build/build';
import { ServiceClient, DailyLimitExhaustedError } from '../../src/client';
import { startSandbox } from '../../src/sandbox';
import { startAddinHost } from '../../addin/server/host';
import { hostConfigFromEnv } from '../../addin/server/config';
import { startStack, type Stack } from './stack';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';

let stack: Stack;
let dist: string;
/** Answers the "browser" got, when a test records them (see `recorded`): no secret or token may be in any. */
let seen: string[] | undefined;

/** What the add-in's own pages send on every request (host-connection.ts). */
const ADDIN = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE };

async function get(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, headers: { ...ADDIN, ...(init.headers as Record<string, string> | undefined) } });
  if (seen) {
    const body = Buffer.from(await res.clone().arrayBuffer()).toString('latin1');
    seen.push(`${url}\n${[...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${body}`);
  }
  return res;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  get(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** A raw request, so the request target and Host header are exactly what an attacker sends. */
function raw(port: number, target: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'GET', path: target, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const HOLDINGS = [
  ['asset_id', 'segment', 'brand', 'model', 'reference', 'year', 'quantity', 'purchase_price', 'purchase_date'],
  ['', 'watches', 'Rolex', 'Submariner', '126610LN', 2021, 1, 9500, '2021-06-01'],
  ['', 'watches', 'Patek Philippe', 'Nautilus', '5711/1A', 2019, 1, 60000, 43500],
  ['', 'art', 'Banksy', 'Girl with Balloon', '', 2004, 1, 250000, '2019-05-01'],
  ['', 'wine', 'Petrus', 'Pomerol', '', 2010, 6, 18000, '2015-01-10'],
  ['', 'bags', 'Hermes', 'Birkin 30', '', 2020, 1, 20000, '2020-03-03'],
];

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-addin-host-'));
  await buildAddin({ outDir: dist });
  stack = await startStack({ host: { distDir: dist } });
});

afterAll(async () => {
  await stack.close();
  await rm(dist, { recursive: true, force: true });
});

describe('the add-in host', () => {
  it('serves the add-in and office.js, and proxies the API with the rate budget in the headers', async () => {
    const base = stack.host.url;
    expect((await get(`${base}/taskpane.html`)).status).toBe(200);
    expect((await get(`${base}/functions.json`)).status).toBe(200);
    const office = await get(`${base}/office-js/office.js`);
    expect(office.status).toBe(200);
    expect(office.headers.get('content-type')).toMatch(/javascript/);
    const segments = await get(`${base}/api/v1/segments`);
    expect(segments.status).toBe(200);
    expect(((await segments.json()) as { segments: unknown[] }).segments).toHaveLength(10);
    // The day's budget is passed on; the minute's is not (the host alone paces upstream calls).
    expect(segments.headers.get('x-ratelimit-limit-day')).toBe('500000');
    expect(Number(segments.headers.get('x-ratelimit-remaining-day'))).toBeLessThan(500000);
    expect(segments.headers.get('x-ratelimit-limit')).toBeNull();
    const status = (await (await get(`${base}/addin/status`)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ service: 'test sandbox', sandbox: true, connected: true, tier: 'enterprise', minute_limit: 1000, day_limit: 500000, limits_in_force: '1,000 a minute and 500,000 a day, as the service states them for this account' });
  });

  it('strips any incoming Authorization and adds its own token', async () => {
    const before = (await stack.log()).length;
    const res = await get(`${stack.host.url}/api/v1/signals/watches`, { headers: { authorization: 'Bearer forged.token.value', cookie: 'a=b' } });
    expect(res.status).toBe(200);
    const lines = (await stack.log()).slice(before);
    expect(lines.find((l) => l.path === '/v1/signals/watches')).toMatchObject({ client_id: stack.account.client_id, status: 200 });
  });

  it('refuses everything that is not one of the service API operations', async () => {
    const base = stack.host.url;
    const before = (await stack.log()).length;
    const refused = [
      ['POST', '/api/v1/auth/token'],
      ['POST', '/api/v1/auth/refresh'],
      ['GET', '/api/v1/invoices'],
      ['POST', '/api/v1/api/v1/payment-requests'],
      ['GET', '/api/v2/segments'],
      ['GET', '/api/v1//evil.example/v1/segments'],
      ['GET', '/api/v1/segments/watches/extra'],
      ['GET', '/v1/segments'],
      ['GET', '/etc/passwd'],
      ['GET', '/office-js/../../package.json'],
      ['GET', '/%2e%2e/package.json'],
      ['GET', '/..%2fpackage.json'],
      ['GET', '/addin/../../.env'],
    ] as const;
    for (const [method, p] of refused) {
      const res = await get(`${base}${p}`, { method, ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) });
      expect(res.status, `${method} ${p}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${p}`).toBeLessThan(500);
    }
    const del = await get(`${base}/api/v1/segments`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    for (const target of ['/../../package.json', '/office-js/%2e%2e/%2e%2e/package.json']) {
      const r = await raw(Number(new URL(base).port), target);
      expect(r.status, target).toBe(404);
    }
    expect((await stack.log()).slice(before)).toEqual([]);
  });

  it('forwards only to its one configured service, whatever the request names', async () => {
    const port = Number(new URL(stack.host.url).port);
    const before = (await stack.log()).length;
    const r = await raw(port, 'http://evil.example/api/v1/segments/art', { host: `127.0.0.1:${port}`, ...ADDIN });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ segment: { id: 'art' } });
    // A page that reaches the host under another name (DNS rebinding) is refused.
    const rebound = await raw(port, '/api/v1/segments/wine', { host: `evil.example:${port}`, ...ADDIN });
    expect(rebound.status).toBe(403);
    const lines = (await stack.log()).slice(before);
    expect(lines.map((l) => l.path)).toEqual(['/v1/segments/art']);
  });

  it('shares one cache: identical batches cost one call, overlapping ones send only the new items', async () => {
    const base = stack.host.url;
    const a = { segment: 'watches', brand: 'Omega', model: 'Speedmaster', reference: '311.30' };
    const b = { segment: 'watches', brand: 'Omega', model: 'Seamaster', reference: '210.30' };
    const c = { segment: 'watches', brand: 'Omega', model: 'Constellation', reference: '131.10' };
    const before = (await stack.log()).length;
    const [first, second] = await Promise.all([post(`${base}/api/v1/valuations/batch`, { assets: [a, b] }), post(`${base}/api/v1/valuations/batch`, { assets: [a, b] })]);
    const third = await post(`${base}/api/v1/valuations/batch`, { assets: [b, c, a] });
    const batches = (await stack.log()).slice(before).filter((l) => l.path === '/v1/valuations/batch');
    expect(batches.map((l) => l.items)).toEqual([2, 1]);
    const bodies = (await Promise.all([first.json(), second.json(), third.json()])) as { count: number; valuations: { asset_id: string; estimated_value: { mid: number } }[]; total_value: number }[];
    expect(bodies[1]!.valuations).toEqual(bodies[0]!.valuations);
    // [b, c, a]: b and a answered from the cache, exactly as first answered them.
    expect(bodies[2]!.valuations[0]).toEqual(bodies[0]!.valuations[1]);
    expect(bodies[2]!.valuations[2]).toEqual(bodies[0]!.valuations[0]);
    const direct = (await (await post(`${base}/api/v1/valuations/batch`, { assets: [c] })).json()) as { valuations: unknown[] };
    expect(bodies[2]!.valuations[1]).toEqual(direct.valuations[0]);
    expect(bodies[2]!.total_value).toBeCloseTo(bodies[2]!.valuations.reduce((s, v) => s + v.estimated_value.mid, 0), 6);
  });

  it("names a refused item by its index in the caller's batch", async () => {
    const base = stack.host.url;
    const cached = { segment: 'watches', brand: 'Tudor', model: 'Black Bay', reference: '79230' };
    await post(`${base}/api/v1/valuations/batch`, { assets: [cached] });
    const res = await post(`${base}/api/v1/valuations/batch`, { assets: [cached, { segment: 'boats', brand: 'Riva', model: 'Aquarama' }] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { field: string; allowed_values: string[] } };
    expect(body.error.field).toBe('assets[1].segment');
    expect(body.error.allowed_values).toContain('watches');
  });

  it('exports a portfolio named in another script under its own name (RFC 5987 filename*, ASCII fallback)', async () => {
    const res = await post(`${stack.host.url}/addin/report`, { format: 'csv', grid: HOLDINGS, sheet: '山田家', first_row: 1, currency: 'USD', portfolio_name: '山田家' });
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toMatch(/filename="___-\d{4}-\d{2}-\d{2}\.csv"/);
    const encoded = /filename\*=UTF-8''([^;\s]+)/.exec(disposition)![1]!;
    expect(decodeURIComponent(encoded)).toMatch(/^山田家-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it('exports the selected portfolio through the report job, in every format', async () => {
    const base = stack.host.url;
    const formats = ['xlsx', 'csv', 'json', 'pdf', 'html'] as const;
    const CONTENT_TYPES = { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8', pdf: 'application/pdf', html: 'text/html; charset=utf-8' };
    const files: Record<string, Buffer> = {};
    for (const format of formats) {
      const res = await post(`${base}/addin/report`, { format, grid: HOLDINGS, sheet: 'Smith Family', first_row: 1, currency: 'USD', portfolio_name: 'Smith Family' });
      expect(res.status, format).toBe(200);
      // Always an attachment: the web page (issue 38) is saved, never shown inside the host's own origin.
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="smith-family-\\d{4}-\\d{2}-\\d{2}\\.${format}"`));
      expect(res.headers.get('content-type'), format).toBe(CONTENT_TYPES[format]);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-report-holdings')).toBe('5');
      files[format] = Buffer.from(await res.arrayBuffer());
    }
    const report = JSON.parse(files.json!.toString('utf8')) as { portfolio: { name: string }; sandbox: boolean; summary: { asset_count: number } };
    expect(report.portfolio.name).toBe('Smith Family');
    expect(report.sandbox).toBe(true);
    expect(report.summary.asset_count).toBe(5);
    expect(files.json!.toString('utf8')).toContain('SVC-WAT-ROLEX-126610LN-2021');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(files.xlsx! as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toContain('Holdings');
    expect(files.csv!.toString('utf8')).toContain('SVC-WAT-ROLEX-126610LN-2021');
    const pdf = path.join(dist, 'report.pdf');
    await writeFile(pdf, files.pdf!);
    expect(execFileSync('pdftotext', [pdf, '-']).toString()).toContain('Smith Family');
    // The web page, read back by an independent parser (xmllint's HTML reader): the portfolio named, every holding's asset id there.
    const page = path.join(dist, 'report.html');
    await writeFile(page, files.html!);
    const text = execFileSync('xmllint', ['--html', '--xpath', 'string(/html/body)', page], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    expect(text).toContain('Smith Family');
    expect(text).toContain('SVC-WAT-ROLEX-126610LN-2021');

    const bad = await post(`${base}/addin/report`, { format: 'docx', grid: HOLDINGS });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string; field: string } }).error).toMatchObject({ field: 'format', message: expect.stringMatching(/format.*xlsx, csv, json, pdf/) });
  });

  it('never hands the browser the client secret or a token', async () => {
    // Every kind of answer the host gives, recorded here: pages, office.js, API results, errors, status, a report.
    seen = [];
    try {
      const base = stack.host.url;
      for (const p of ['/', '/taskpane.html', '/functions.js', '/functions.json', '/office-js/office.js', '/addin/status', '/api/v1/segments', '/api/v1/signals/alerts', '/api/v1/auth/token', '/nothing-here']) await get(`${base}${p}`);
      await post(`${base}/api/v1/valuations/batch`, { assets: [{ segment: 'watches', brand: 'Rolex', model: 'Submariner', reference: '126610LN' }] });
      await post(`${base}/api/v1/valuations/batch`, { assets: [{ segment: 'boats', brand: 'Riva', model: 'Aquarama' }] });
      await post(`${base}/api/v1/auth/token`, { grant_type: 'client_credentials', client_id: stack.account.client_id, client_secret: stack.account.client_secret });
      await post(`${base}/addin/report`, { format: 'json', grid: HOLDINGS.slice(0, 3) });
      expect(seen.length).toBe(14);
      for (const text of seen) {
        expect(text).not.toContain(stack.account.client_secret);
        expect(text).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\./);
        expect(text).not.toMatch(/"(access|refresh)_token"\s*:/);
      }
    } finally {
      seen = undefined;
    }
    for (const file of (await readdir(dist)).filter((f) => f.includes('.'))) {
      const text = await readFile(path.join(dist, file), 'latin1');
      expect(text, file).not.toContain(stack.account.client_secret);
      expect(text, file).not.toContain(stack.account.client_id);
    }
  });
});

describe('budget', () => {
  it('waits for the minute window while the budget allows, for every user of the host', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-addin-minute-'));
    const logFile = path.join(dir, 'log.jsonl');
    const sb = await startSandbox({ port: 0, quiet: true, logFile, minuteMs: 1_000, accounts: [{ client_id: 'small', client_secret: 'small-secret', tier: 'starter', per_minute: 3, per_day: 1_000 }] });
    const host = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, service: { baseUrl: sb.url, clientId: 'small', clientSecret: 'small-secret', limits: { minuteMs: 1_000 } } });
    try {
      const users = Array.from({ length: 3 }, (_, u) => new ServiceClient({ baseUrl: `${host.url}/api/v1`, headers: ADDIN, tokenProvider: () => undefined, rateLimitKey: `user-${u}`, limits: { minuteMs: 1_000 } }));
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => users[i % 3]!.valuations.batch({ assets: [{ segment: 'watches', brand: 'Small', model: `M${i}` }] })),
      );
      expect(answers.every((a) => a.count === 1)).toBe(true);
      const lines = (await readFile(logFile, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { path: string; status: number });
      const batches = lines.filter((l) => l.path === '/v1/valuations/batch');
      expect(batches).toHaveLength(8);
      expect(batches.every((l) => l.status === 200)).toBe(true);
    } finally {
      await host.close();
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails fast, naming when it returns, once the day's budget is spent", async () => {
    const sb = await startSandbox({ port: 0, quiet: true, accounts: [{ client_id: 'tiny', client_secret: 'tiny-secret', tier: 'starter', per_minute: 60, per_day: 2 }] });
    const host = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, service: { baseUrl: sb.url, clientId: 'tiny', clientSecret: 'tiny-secret' } });
    try {
      const browser = new ServiceClient({ baseUrl: `${host.url}/api/v1`, headers: ADDIN, tokenProvider: () => undefined, rateLimitKey: 'tiny-browser' });
      // Sequential, each awaited: a host that waited for the day to turn would never get past the third (the test's timeout is the guard, not a clock).
      const outcomes: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        outcomes.push(await browser.valuations.batch({ assets: [{ segment: 'watches', brand: 'Tiny', model: `M${i}` }] }).then(() => 'ok', (e: Error) => e));
      }
      expect(outcomes.slice(0, 2)).toEqual(['ok', 'ok']);
      for (const o of outcomes.slice(2)) {
        expect(o).toBeInstanceOf(DailyLimitExhaustedError);
        expect((o as Error).message).toMatch(/returns at \d{4}-\d{2}-\d{2}/);
      }
    } finally {
      await host.close();
      await sb.close();
    }
  });
});

describe('host configuration', () => {
  it('requires the deployment key on the API when one is set, and keeps the manifest private', async () => {
    const host = await startAddinHost({
      port: 0,
      insecureHttp: true,
      distDir: dist,
      deploymentKey: 'deploy-key-0123',
      service: { baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret },
    });
    try {
      expect((await get(`${host.url}/api/v1/segments`)).status).toBe(403);
      expect((await get(`${host.url}/api/v1/segments`, { headers: { 'x-addin-deployment-key': 'deploy-key-0124' } })).status).toBe(403);
      expect((await get(`${host.url}/addin/status`)).status).toBe(403);
      expect((await get(`${host.url}/api/v1/segments`, { headers: { 'x-addin-deployment-key': 'deploy-key-0123' } })).status).toBe(200);
      expect((await fetch(`${host.url}/taskpane.html`)).status).toBe(200);
      expect((await fetch(`${host.url}/manifest.xml`)).status).toBe(404);
    } finally {
      await host.close();
    }
  });

  it('marks the status as the sandbox when the service says it is one, even when not configured as such', async () => {
    // As with SVC_BASE_URL pointing at a standalone svc-sandbox: no label, no sandbox flag.
    const host = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, service: { baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret } });
    try {
      const status = (await (await get(`${host.url}/addin/status`)).json()) as { sandbox: boolean; connected: boolean };
      expect(status).toMatchObject({ sandbox: true, connected: true });
      const report = await post(`${host.url}/addin/report`, { format: 'json', grid: HOLDINGS.slice(0, 2) });
      expect(((await report.json()) as { sandbox: boolean }).sandbox).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('serves HTTPS with the configured certificate, and plain HTTP only on 127.0.0.1', async () => {
    const certDir = await mkdtemp(path.join(tmpdir(), 'svc-addin-cert-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(certDir, 'key.pem'), '-out', path.join(certDir, 'cert.pem')], { stdio: 'ignore' });
      const cert = await readFile(path.join(certDir, 'cert.pem'));
      const key = await readFile(path.join(certDir, 'key.pem'));
      const service = { baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret };
      const host = await startAddinHost({ port: 0, distDir: dist, tls: { cert, key }, service });
      try {
        expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        const status = await new Promise<number>((resolve, reject) =>
          https.get(`${host.url}/taskpane.html`, { ca: cert }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          }).on('error', reject),
        );
        expect(status).toBe(200);
      } finally {
        await host.close();
      }
      await expect(startAddinHost({ port: 0, host: '0.0.0.0', insecureHttp: true, service })).rejects.toThrow(/HTTPS|127\.0\.0\.1/);
      await expect(startAddinHost({ port: 0, service })).rejects.toThrow(/certificate/);
    } finally {
      await rm(certDir, { recursive: true, force: true });
    }
  });

  it('reads its settings from the environment, naming what is wrong', () => {
    expect(hostConfigFromEnv({})).toMatchObject({ port: 3000, host: '127.0.0.1' });
    expect(hostConfigFromEnv({}).service).toBeUndefined();
    expect(hostConfigFromEnv({ SVC_BASE_URL: 'https://api.example.com/v1', SVC_CLIENT_ID: 'id', SVC_CLIENT_SECRET: 's', SVC_TIER: 'pro' }).service).toEqual({
      baseUrl: 'https://api.example.com/v1',
      clientId: 'id',
      clientSecret: 's',
      tier: 'pro',
    });
    expect(() => hostConfigFromEnv({ SVC_BASE_URL: 'https://api.example.com/v1' })).toThrow(/SVC_CLIENT_ID and SVC_CLIENT_SECRET/);
    expect(() => hostConfigFromEnv({ ADDIN_TLS_CERT: 'c.pem' })).toThrow(/ADDIN_TLS_KEY/);
    expect(() => hostConfigFromEnv({ ADDIN_DEPLOYMENT_KEY: 'short' })).toThrow(/8 to 200 characters/);
    expect(() => hostConfigFromEnv({ SVC_BASE_URL: 'https://x/v1', SVC_CLIENT_ID: 'a', SVC_CLIENT_SECRET: 'b', SVC_TIER: 'gold' })).toThrow(/starter, pro or enterprise/);
  });
});
