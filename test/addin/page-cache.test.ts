import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAddin, type BuildResult } from '../../addin/build/build';
import { IMMUTABLE, isHashedFile } from '../../addin/contract/page-cache';
import { OFFICE_JS_CDN } from '../../addin/contract/office-js-cdn';
import { keptPath, strategyFor } from '../../addin/src/service-worker/strategy';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { startStack, type Stack } from './stack';

/**
 * What browsers and proxies may keep (the host's Cache-Control) and what the service worker
 * keeps (its strategy and the list the build gives it): hashed files a year, entry pages and
 * sw.js revalidated every time, the API, status, sign-in settings and tokens never.
 */
let built: BuildResult;
let stack: Stack;
let files: string[];

beforeAll(async () => {
  const dist = await mkdtemp(path.join(tmpdir(), 'svc-page-cache-'));
  built = await buildAddin({ outDir: dist });
  files = (await readdir(dist, { recursive: true })).map((f) => `/${f.split(path.sep).join('/')}`);
  stack = await startStack({ host: { distDir: dist } });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  if (built) await rm(built.outDir, { recursive: true, force: true });
});

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${stack.host.url}${p}`, { headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, ...headers } });

describe("the host's caching headers", () => {
  it('hashed files are immutable for a year; the entry pages, functions.json and sw.js are revalidated every time', async () => {
    const hashed = files.filter(isHashedFile);
    expect(hashed.length).toBeGreaterThanOrEqual(5); // functions, commands, taskpane, css, the pane's icon
    for (const p of hashed) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control'), p).toBe(IMMUTABLE);
    }
    for (const p of ['/', '/taskpane.html', '/taskpane.html?deployment_key=abc', '/help.html', '/functions.json', '/functions.js', '/assets/icon-32.png', '/sw.js']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
    }
  });

  it('the API, the pane status, sign-in settings and refusals are never stored', async () => {
    for (const p of ['/api/v1/segments', '/api/v1/auth/token', '/addin/status', '/addin/budget', '/auth-config.json', '/nothing-here', '/healthz']) {
      const res = await get(p);
      expect(res.headers.get('cache-control'), `${p} (${res.status})`).toBe('no-store');
    }
    // With a token on it too.
    expect((await get('/api/v1/segments', { authorization: 'Bearer x' })).headers.get('cache-control')).toBe('no-store');
  });

  it("the pages' policy allows the same-origin worker; the worker's own policy lets it fetch only the host", async () => {
    const page = (await get('/taskpane.html')).headers.get('content-security-policy')!;
    expect(page).toContain("worker-src 'self'");
    expect(page).toContain("script-src 'self'");
    const worker = await get('/sw.js');
    expect(worker.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(worker.headers.get('content-security-policy')).toBe("default-src 'none'; connect-src 'self'");
  });
});

describe('the build for the worker', () => {
  it('points the entry pages at hashed names only, stamps them with the version, and lists no settings, manifest or build record', async () => {
    const page = await readFile(path.join(built.outDir, 'taskpane.html'), 'utf8');
    expect(page).toContain(`<meta name="svc-addin-version" content="${built.version}">`);
    for (const ref of page.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const target = ref[1]!;
      if (target.startsWith('https://') || target === 'help.html') continue;
      expect(isHashedFile(`/${target}`), target).toBe(true);
    }
    const sw = await readFile(path.join(built.outDir, 'sw.js'), 'utf8');
    expect(sw).toContain(built.version);
    expect(built.offlineFiles.filter((p) => /auth-config|manifest\.xml|build-info|\/api\/|^\/functions\.js$|sw\.js/.test(p))).toEqual([]);
    expect(built.offlineFiles).toEqual(expect.arrayContaining(['/taskpane.html', '/help.html', '/functions.json', ...files.filter(isHashedFile)]));
    for (const p of built.offlineFiles) expect(sw, p).toContain(`"${p}"`);
  });

  it('the same sources give the same version; a changed file a new one', async () => {
    const again = await buildAddin({ outDir: await mkdtemp(path.join(tmpdir(), 'svc-page-cache-again-')) });
    const changed = await buildAddin({ outDir: await mkdtemp(path.join(tmpdir(), 'svc-page-cache-changed-')), release: 'changed' });
    try {
      expect(again.version).toBe(built.version);
      expect(changed.version).not.toBe(built.version);
    } finally {
      await rm(again.outDir, { recursive: true, force: true });
      await rm(changed.outDir, { recursive: true, force: true });
    }
  });
});

describe("the worker's strategy", () => {
  const origin = 'https://addin.example.com';
  const listed = new Set(['/taskpane.html', '/help.html', '/functions.json', '/taskpane.0123456789abcdef.js']);
  const at = (p: string) => new URL(p, origin);

  it('keeps nothing of the API, the pane status, sign-in or the manifest, nor any request carrying a token', () => {
    for (const p of ['/api/v1/valuations/batch', '/api/v1/auth/token', '/addin/status', '/addin/report', '/auth-config.json', '/manifest.xml', '/build-info.json', '/sw.js', '/healthz', '/signin', '/auth/callback']) {
      expect(strategyFor(at(p), origin, new Set([...listed, p]), false), p).toBe('pass');
    }
    expect(strategyFor(at('/taskpane.html'), origin, listed, true)).toBe('pass');
    expect(strategyFor(new URL('https://login.microsoftonline.com/common/oauth2/v2.0/token'), origin, listed, false)).toBe('pass');
  });

  it("hashed files from the cache, the entry pages from the network first, office.js kept; what this version did not list passes", () => {
    expect(strategyFor(at('/taskpane.0123456789abcdef.js'), origin, listed, false)).toBe('cache-first');
    expect(strategyFor(at('/taskpane.html?deployment_key=k&_host_Info=x'), origin, listed, false)).toBe('network-first');
    expect(strategyFor(at('/'), origin, listed, false)).toBe('network-first');
    expect(strategyFor(at('/office-js/excel-web-16.00.js'), origin, listed, false)).toBe('office-js');
    expect(strategyFor(new URL(OFFICE_JS_CDN), origin, listed, false)).toBe('office-js');
    expect(strategyFor(at('/taskpane.fedcba9876543210.js'), origin, listed, false)).toBe('pass');
    expect(strategyFor(at('/excel-web.html'), origin, listed, false)).toBe('pass');
    expect(strategyFor(new URL('https://cdn.example.com/x.js'), origin, listed, false)).toBe('pass');
  });

  it('keeps pages under their path alone: the deployment key in the query is never part of a cache key', () => {
    expect(keptPath(at('/taskpane.html?deployment_key=secret-key'))).toBe('/taskpane.html');
    expect(keptPath(at('/?deployment_key=secret-key'))).toBe('/taskpane.html');
  });
});
