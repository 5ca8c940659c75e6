import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import https from 'node:https';
import { buildAddin } from '../../addin/build/build';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { OFFICE_JS_CDN } from '../../addin/server/office-js';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { commandArgs } from '../../fixtures/commands';
import { startStack, type Stack } from './stack';

/**
 * The host as an attacker and a careless user meet it, every check through real HTTP: each
 * test here failed on the host before the hardening of issue 17.
 */

const KEY = 'firm-deploy-key-2026';
const ADDIN = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE };

let stack: Stack;
let dist: string;
let keyed: RunningAddinHost;

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request exactly as given: target, headers and body bytes, nothing added but Host. */
function raw(base: string, method: string, target: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawAnswer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: Number(u.port), method, path: target, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const json = (base: string, target: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(base, 'POST', target, { 'content-type': 'application/json', ...ADDIN, ...headers }, typeof body === 'string' ? body : JSON.stringify(body));

async function upstreamSince(before: number): Promise<string[]> {
  return (await stack.log()).slice(before).map((l) => l.path);
}

const GRID = [
  ['segment', 'brand', 'model', 'reference', 'year'],
  ['watches', 'Rolex', 'Submariner', '126610LN', 2021],
];

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-addin-hardening-'));
  await buildAddin({ outDir: dist, deploymentKey: KEY });
  stack = await startStack({ host: { distDir: dist } });
  keyed = await startAddinHost({
    port: 0,
    insecureHttp: true,
    distDir: dist,
    officeJs: 'local',
    deploymentKey: KEY,
    service: { baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret },
  });
});

afterAll(async () => {
  await keyed?.close();
  await stack?.close();
  await rm(dist, { recursive: true, force: true });
});

describe('paths are decoded once and decided on', () => {
  it('never serves the manifest or build info (which carry the deployment key) under an encoded or case-changed name', async () => {
    // The built manifest really carries the key: the leak would be real.
    expect(await readFile(path.join(dist, 'manifest.xml'), 'utf8')).toContain(KEY);
    const targets = ['/manifest.xml', '/%6danifest.xml', '/manifest%2exml', '/..%2fmanifest.xml', '/%2fmanifest.xml', '/%62uild-info.json', '/build-info.json', '/MANIFEST.XML', '/Manifest.xml.', '/assets/..%2fmanifest.xml', '/office-js/..%2f..%2f..%2f..%2faddin/dist/manifest.xml', '/%252e%252e/manifest.xml'];
    for (const target of targets) {
      const r = await raw(keyed.url, 'GET', target);
      expect(r.status, target).toBeGreaterThanOrEqual(400);
      expect(r.status, target).toBeLessThan(500);
      expect(r.body, target).not.toContain(KEY);
    }
    // The page itself is still served.
    expect((await raw(keyed.url, 'GET', '/taskpane.html')).status).toBe(200);
  });

  it('applies the deployment key to API routes however their path is spelt', async () => {
    const before = (await stack.log()).length;
    for (const target of ['/%61pi/v1/segments', '/api/v1/%73egments', '/api%2fv1/segments', '/api/v1/segments/%2e%2e/segments']) {
      const r = await raw(keyed.url, 'GET', target, ADDIN);
      expect(r.status, target).toBeGreaterThanOrEqual(400);
      expect(r.status, target).toBeLessThan(500);
    }
    expect(await upstreamSince(before)).toEqual([]);
  });
});

describe('cross-site requests are refused on every route that spends or changes anything', () => {
  const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

  for (const mode of ['no key', 'deployment key'] as const) {
    it(`refuses text/plain, form and foreign-origin requests (${mode})`, async () => {
      const host = mode === 'no key' ? stack.host : keyed;
      const keyHeader: Record<string, string> = mode === 'no key' ? {} : { 'x-addin-deployment-key': KEY };
      const before = (await stack.log()).length;
      const batch = JSON.stringify({ assets: [{ segment: 'watches', brand: 'Cartier', model: `Tank ${mode}` }] });
      const attempts: [string, string, Record<string, string>, string | undefined][] = [
        // What a hostile page can send without a preflight: simple content types, no custom header.
        ['POST', '/api/v1/valuations', { ...evil, 'content-type': 'text/plain', ...keyHeader }, batch],
        ['POST', '/api/v1/valuations/batch', { ...evil, 'content-type': 'application/x-www-form-urlencoded', ...keyHeader }, `a=${encodeURIComponent(batch)}`],
        ['POST', '/addin/report', { ...evil, 'content-type': 'text/plain', ...keyHeader }, JSON.stringify({ format: 'json', grid: GRID })],
        ['POST', '/addin/refresh', { ...evil, 'content-type': 'text/plain', ...keyHeader }, '{}'],
        ['GET', '/api/v1/signals/alerts', { ...evil, ...keyHeader }, undefined],
        // Even with the header and JSON (a preflight the host never grants), a foreign Origin or site is refused.
        ['POST', '/api/v1/valuations/batch', { ...evil, ...ADDIN, 'content-type': 'application/json', ...keyHeader }, batch],
        ['POST', '/api/v1/valuations/batch', { 'sec-fetch-site': 'cross-site', ...ADDIN, 'content-type': 'application/json', ...keyHeader }, batch],
        ['POST', '/api/v1/valuations/batch', { 'sec-fetch-site': 'same-site', ...ADDIN, 'content-type': 'application/json', ...keyHeader }, batch],
        // The add-in's header but a text/plain body.
        ['POST', '/api/v1/valuations/batch', { ...ADDIN, 'content-type': 'text/plain', ...keyHeader }, batch],
        ['GET', '/addin/status', { ...evil, ...keyHeader }, undefined],
      ];
      for (const [method, target, headers, body] of attempts) {
        const r = await raw(host.url, method, target, headers, body);
        expect([403, 415], `${method} ${target} ${JSON.stringify(headers)}`).toContain(r.status);
      }
      expect(await upstreamSince(before)).toEqual([]);
      // The add-in's own page is answered.
      const own = await json(host.url, '/api/v1/valuations/batch', batch, { origin: new URL(host.url).origin, 'sec-fetch-site': 'same-origin', ...keyHeader });
      expect(own.status).toBe(200);
    });
  }

  it('does not let a foreign page clear the shared cache', async () => {
    const asset = { segment: 'watches', brand: 'Cartier', model: 'Santos', reference: 'WSSA0018' };
    await json(stack.host.url, '/api/v1/valuations/batch', { assets: [asset] });
    const before = (await stack.log()).length;
    const r = await raw(stack.host.url, 'POST', '/addin/refresh', { origin: 'https://evil.example', 'content-type': 'text/plain' }, '');
    expect(r.status).toBe(403);
    expect((await json(stack.host.url, '/api/v1/valuations/batch', { assets: [asset] })).status).toBe(200);
    expect(await upstreamSince(before)).toEqual([]);
  });
});

describe('bodies are limited and checked before use', () => {
  it('answers a body nested 10,000 deep with a 400, not a crash', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const target of ['/api/v1/valuations/batch', '/api/v1/valuations', '/addin/report']) {
      const r = await json(stack.host.url, target, `{"assets":${deep}}`);
      expect(r.status, target).toBe(400);
      expect(JSON.parse(r.body).error.message, target).toMatch(/nested deeper than/);
    }
    const nestedInField = await json(stack.host.url, '/api/v1/valuations/batch', `{"assets":[{"segment":"watches","brand":"A","model":"B","x":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}]}`);
    expect(nestedInField.status).toBe(400);
    expect((await raw(stack.host.url, 'GET', '/taskpane.html')).status).toBe(200);
  });

  it('names the field when portfolio_name, sheet or a grid cell has the wrong type', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ format: 'json', grid: GRID, portfolio_name: 42 }, 'portfolio_name'],
      [{ format: 'json', grid: GRID, portfolio_name: { a: 1 } }, 'portfolio_name'],
      [{ format: 'json', grid: GRID, sheet: 7 }, 'sheet'],
      [{ format: 'json', grid: GRID, sheet: ['Holdings'] }, 'sheet'],
      [{ format: 'json', grid: [GRID[0], ['watches', { brand: 'Rolex' }, 'Submariner', '', 2021]] }, 'grid[1][1]'],
      [{ format: 'json', grid: [GRID[0], ['watches', 'Rolex', ['Submariner'], '', 2021]] }, 'grid[1][2]'],
      [{ format: 'json', grid: 'A1:B2' }, 'grid'],
      [{ format: 'json', grid: GRID, first_row: -3 }, 'first_row'],
      [{ format: 'json', grid: GRID, currency: 'JPY' }, 'currency'],
    ];
    const before = (await stack.log()).length;
    for (const [body, field] of cases) {
      const r = await json(stack.host.url, '/addin/report', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(r.body).error.field, JSON.stringify(body)).toBe(field);
    }
    expect(await upstreamSince(before)).toEqual([]);
  });

  it('checks API bodies with the wire schemas before anything else reads them', async () => {
    const before = (await stack.log()).length;
    const r = await json(stack.host.url, '/api/v1/valuations/batch', { assets: [{ segment: 'watches', brand: { x: 1 }, model: 'M' }] });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.field).toBe('assets[0].brand');
    expect((await json(stack.host.url, '/api/v1/valuations/batch', { assets: 'all of them' })).status).toBe(400);
    expect(await upstreamSince(before)).toEqual([]);
  });

  it('refuses a body larger than the limit with a 413', async () => {
    const r = await json(stack.host.url, '/api/v1/valuations/batch', JSON.stringify({ assets: [], pad: 'x'.repeat(1_100_000) }));
    expect(r.status).toBe(413);
  });
});

describe('headers on every page', () => {
  it('sends a content-security policy allowing office.js from exactly Microsoft\'s CDN, framing by Office, nothing inline', async () => {
    const cdnHost = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, service: { baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret } });
    try {
      for (const p of ['/', '/taskpane.html', '/help.html', '/functions.js', '/nothing-here']) {
        const r = await raw(cdnHost.url, 'GET', p);
        const csp = String(r.headers['content-security-policy']);
        expect(csp, p).toMatch(/script-src 'self' https:\/\/appsforoffice\.microsoft\.com(;|$)/);
        expect(csp, p).toMatch(/frame-ancestors 'self' https:\/\/\*\.officeapps\.live\.com/);
        expect(csp, p).toContain("default-src 'none'");
        expect(csp, p).not.toContain('unsafe-inline');
        expect(csp, p).not.toContain('unsafe-eval');
        expect(r.headers['strict-transport-security'], p).toBeUndefined();
      }
      const page = await raw(cdnHost.url, 'GET', '/taskpane.html');
      expect(page.body).toContain(`<script src="${OFFICE_JS_CDN}"></script>`);
      expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]+<\/script>|\son\w+=/);
      // The npm copy is not served unless asked for.
      expect((await raw(cdnHost.url, 'GET', '/office-js/office.js')).status).toBe(404);
    } finally {
      await cdnHost.close();
    }
    // ADDIN_OFFICE_JS=local: the page loads the host's copy and the policy names no other origin.
    const local = await raw(stack.host.url, 'GET', '/taskpane.html');
    expect(local.body).toContain('<script src="/office-js/office.js"></script>');
    expect(local.body).not.toContain('appsforoffice');
    expect(String(local.headers['content-security-policy'])).toMatch(/script-src 'self';/);
    expect((await raw(stack.host.url, 'GET', '/office-js/office.js')).status).toBe(200);
  });

  it('sends HSTS over TLS', async () => {
    const certDir = await mkdtemp(path.join(tmpdir(), 'svc-addin-hsts-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(certDir, 'key.pem'), '-out', path.join(certDir, 'cert.pem')], { stdio: 'ignore' });
      const cert = await readFile(path.join(certDir, 'cert.pem'));
      const key = await readFile(path.join(certDir, 'key.pem'));
      const host = await startAddinHost({ port: 0, distDir: dist, tls: { cert, key }, service: { baseUrl: stack.sandboxUrl, clientId: 'x', clientSecret: 'y' } });
      try {
        const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) =>
          https.get(`${host.url}/taskpane.html`, { ca: cert }, (res) => {
            res.resume();
            resolve(res.headers);
          }).on('error', reject),
        );
        expect(headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
        expect(headers['content-security-policy']).toContain('frame-ancestors');
      } finally {
        await host.close();
      }
    } finally {
      await rm(certDir, { recursive: true, force: true });
    }
  });
});

describe('start-up and limits', () => {
  // The host command as the suite compiled it (fixtures/commands.ts): no tsx start-up per run.
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(process.execPath, commandArgs('addin-serve'), { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: process.env.TMPDIR ?? '', ADDIN_PORT: '0', ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
      });
    });

  it('refuses a service address with a password in it, without printing the password', async () => {
    const r = await run({ SVC_BASE_URL: 'https://analyst:hunter2-secret@api.example.com/v1', SVC_CLIENT_ID: 'id', SVC_CLIENT_SECRET: 'secret' });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/SVC_BASE_URL must not contain a user name or password/);
    expect(r.out).not.toContain('hunter2-secret');
    await expect(startAddinHost({ port: 0, insecureHttp: true, distDir: dist, service: { baseUrl: 'http://u:p@127.0.0.1:9/v1', clientId: 'a', clientSecret: 'b' } })).rejects.toThrow(/user name or password/);
  }, 90_000);

  it('refuses a deployment key the build would refuse', async () => {
    const r = await run({ ADDIN_DEPLOYMENT_KEY: 'key with spaces & quotes"' });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/8 to 200 characters of letters, digits/);
    await expect(startAddinHost({ port: 0, insecureHttp: true, distDir: dist, deploymentKey: 'a"b<c>d&e f', service: { baseUrl: stack.sandboxUrl, clientId: 'a', clientSecret: 'b' } })).rejects.toThrow(/8 to 200 characters/);
  }, 90_000);

  it('limits how often the shared cache can be cleared', async () => {
    const host = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, officeJs: 'local', service: { baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret } });
    try {
      expect((await json(host.url, '/addin/refresh', {})).status).toBe(200);
      const second = await json(host.url, '/addin/refresh', {});
      expect(second.status).toBe(429);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(second.body).error.message).toMatch(/try again in \d+ s/);
    } finally {
      await host.close();
    }
  });
});
