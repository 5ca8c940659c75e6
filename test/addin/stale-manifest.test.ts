import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewriteManifest } from '../../addin/build/manifest';
import { startAddinHost } from '../../addin/server/host';
import { createLog } from '../../src/ops';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';

/** The host says so when the manifest it serves was built for another address (ADDIN_PORT changed after the build). */
let sb: RunningSandbox;
let dist: string;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, quiet: true });
  dist = await mkdtemp(path.join(tmpdir(), 'svc-addin-stale-'));
});
afterAll(async () => {
  await sb?.close();
  await rm(dist, { recursive: true, force: true });
});

async function startWithManifestFor(origin: string, publicOrigin?: string) {
  const source = await readFile(path.resolve('manifest.xml'), 'utf8');
  await writeFile(path.join(dist, 'manifest.xml'), rewriteManifest(source, { origin }));
  const lines: string[] = [];
  const log = createLog({ format: 'text', component: 'addin-host', stream: { write: (l: string) => lines.push(l) } });
  const host = await startAddinHost({ port: 0, insecureHttp: true, distDir: dist, log, publicOrigin, service: { baseUrl: sb.url, clientId: 'demo-enterprise', clientSecret: 'demo-enterprise-secret' } });
  await host.stop(1000);
  return { url: host.url, warnings: lines.filter((l) => /manifest/.test(l)) };
}

describe('a manifest built for another address', () => {
  it('is named on start, with the command that rebuilds it for this host', async () => {
    const { url, warnings } = await startWithManifestFor('https://localhost:3000');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('names https://localhost:3000, but this host serves ' + url);
    expect(warnings[0]).toContain(`ADDIN_ORIGIN=${url} npm run addin:build`);
  });

  it('says nothing when the manifest names this host (localhost and 127.0.0.1 alike) or its public origin', async () => {
    // The host listens on a port of its own (0); what it is told is its public origin decides.
    const port = 45_123;
    expect((await startWithManifestFor('https://addin.example.com', 'https://addin.example.com')).warnings).toEqual([]);
    const same = await startWithManifestFor(`http://localhost:${port}`, `http://127.0.0.1:${port}`);
    expect(same.warnings).toEqual([]);
  });
});
