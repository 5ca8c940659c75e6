import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { copyFile, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAddin } from '../../addin/build/build';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { startSandbox, DEMO_ACCOUNTS, type RunningSandbox } from '../../src/sandbox';

/**
 * Issue 29: the host serves the build's public files by their exact names and nothing else. Every
 * spelling a prober might try for a private file (the manifest holding the deployment key, the
 * build record, files planted in the build folder) is a 404 whose body holds no key.
 */

const KEY = 'firm-deploy-key-2929';
const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;

let dist: string;
let sandbox: RunningSandbox;
let keyed: RunningAddinHost;
let open: RunningAddinHost;

/** A request target sent exactly as written (no client-side normalisation of dots, slashes or case). */
function get(base: string, target: string): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: Number(u.port), method: 'GET', path: target }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Percent-encodes every character of `s`. */
const encodeAll = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/**
 * The spellings of `/name` the test walks: each must be refused. (A target starting with a
 * backslash is not origin-form: Node's HTTP parser answers it 400 before the host sees it.)
 */
function spellings(name: string): string[] {
  const [stem, ext] = [name.slice(0, name.lastIndexOf('.')), name.slice(name.lastIndexOf('.') + 1)];
  const mixed = [...name].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
  return [
    `/${name}`,
    `/${name}/`,
    `/${name}//`,
    `/${name}%2f`,
    `/${name}%2F`,
    `/${name}/%2e`,
    `/${name}%2f%2e`,
    `/%2f${name}`,
    `//${name}`,
    `///${name}`,
    `/./${name}`,
    `/%2e/${name}`,
    `/%2E/${name}`,
    `/assets/../${name}`,
    `/assets/%2e%2e/${name}`,
    `/assets%2f%2e%2e%2f${name}`,
    `/%2e%2e/${name}`,
    `/x/%2e%2e/${name}`,
    `/${stem}%2e${ext}`,
    `/${stem}%2E${ext}`,
    `/${encodeAll(name)}`,
    `/${name.toUpperCase()}`,
    `/${mixed}`,
    `/${name.toUpperCase()}/`,
    `/${name};x`,
    `/${name};jsessionid=1`,
    `/${name}%3b`,
    `/${stem};x.${ext}`,
    `/${name}.`,
    `/${name}%20`,
    `/${name}%00`,
    `/${name}::$DATA`,
    `/\\${name}`,
    `/%5c${name}`,
    `/%5C${name}`,
    `/assets\\..\\${name}`,
    `/assets%5c..%5c${name}`,
    `/%252f${name}`,
    `/${name}%252f`,
    `/%252e%252e/${name}`,
    `/assets/%252e%252e/${name}`,
    `/${encodeAll(encodeAll(name))}`,
    `/office-js/..%2f..%2f..%2f..%2faddin/dist/${name}`,
    `/addin/../${name}`,
    `/api/..%2f${name}`,
  ];
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-private-files-'));
  await buildAddin({ outDir: dist, deploymentKey: KEY });
  // Files that reach a build folder by accident or malice: none is public.
  await writeFile(path.join(dist, '.env.json'), JSON.stringify({ deployment_key: KEY }));
  await writeFile(path.join(dist, 'notes.txt'), `deployment_key=${KEY}`);
  await copyFile(path.join(dist, 'manifest.xml'), path.join(dist, 'manifest-copy.xml'));
  await writeFile(path.join(dist, 'settings.json'), JSON.stringify({ key: KEY }));
  await symlink(path.join(dist, 'manifest.xml'), path.join(dist, 'linked.xml'));
  await symlink(path.join(dist, 'build-info.json'), path.join(dist, 'assets', 'info.json'));
  sandbox = await startSandbox({ port: 0, quiet: true });
  const service = { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret };
  keyed = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, officeJs: 'local', deploymentKey: KEY, service });
  open = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, officeJs: 'local', service });
}, 120_000);

afterAll(async () => {
  await keyed?.close();
  await open?.close();
  await sandbox?.close();
  await rm(dist, { recursive: true, force: true });
});

const PRIVATE = ['manifest.xml', 'build-info.json', '.env.json', 'notes.txt', 'manifest-copy.xml', 'settings.json', 'linked.xml', 'assets/info.json'];

describe('the host with a deployment key serves no private file by any spelling', () => {
  it('the manifest really holds the key (a leak would be real)', async () => {
    expect(await readFile(path.join(dist, 'manifest.xml'), 'utf8')).toContain(`deployment_key=${KEY}`);
  });

  for (const name of PRIVATE) {
    it(`every spelling of ${name} is a 404 holding no key`, async () => {
      const targets = spellings(name);
      expect(targets.length).toBeGreaterThan(40);
      for (const target of targets) {
        const r = await get(keyed.url, target);
        expect(r.status, target).toBe(404);
        expect(r.body, target).not.toContain('deployment_key');
        expect(r.body, target).not.toContain(KEY);
      }
    });
  }

  it('serves the public files by their exact names, and only by those', async () => {
    const hashedTaskpane = (await readdir(dist)).find((f) => /^taskpane\.[0-9a-f]{16}\.js$/.test(f))!;
    for (const target of ['/', '/taskpane.html', '/help.html', '/functions.json', '/functions.js', '/sw.js', `/${hashedTaskpane}`, '/assets/icon-80.png']) {
      expect((await get(keyed.url, target)).status, target).toBe(200);
    }
    for (const target of ['/TASKPANE.HTML', '/taskpane.html/', '/taskpane.html;x', '/taskpane.html%2f', '//taskpane.html', '/assets/', '/assets']) {
      expect((await get(keyed.url, target)).status, target).toBe(404);
    }
  });
});

describe('without a deployment key', () => {
  it('the build record and planted files stay private; a manifest without a key is served', async () => {
    const plain = await mkdtemp(path.join(tmpdir(), 'svc-private-files-plain-'));
    try {
      await buildAddin({ outDir: plain });
      const host = await startAddinHost({ port: 0, insecureHttp: true, distDir: plain, officeJs: 'local', service: { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret } });
      try {
        expect((await get(host.url, '/manifest.xml')).status).toBe(200);
        for (const target of spellings('build-info.json')) expect((await get(host.url, target)).status, target).toBe(404);
      } finally {
        await host.close();
      }
      // A keyed manifest in a build served by a host without the key is still private (its content says so).
      for (const target of spellings('manifest.xml')) expect((await get(open.url, target)).status, target).toBe(404);
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  }, 120_000);
});
