import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAddin } from '../../addin/build/build';
import { commandArgs } from '../../fixtures/commands';

/** Every file of a folder with its content hash: what "the build is whole" means. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash('sha256').update(await readFile(file)).digest('hex');
  }
  return out;
}

function run(file: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; killed: boolean; out: string }> {
  return new Promise((resolve) => {
    // The timeout only guards against a hang; a hang is itself the failure this test names.
    execFile(file, args, { env: { PATH: process.env.PATH ?? '', TMPDIR: process.env.TMPDIR ?? '', ...env }, timeout: 90_000 }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: number; killed?: boolean }) | null;
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, killed: e?.killed ?? false, out: `${stdout}${stderr}` });
    });
  });
}

describe('addin:build', () => {
  it('leaves the previous build whole, and nothing half-built, when a build fails', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'svc-addin-swap-'));
    const dist = path.join(parent, 'dist');
    try {
      await buildAddin({ outDir: dist, origin: 'https://addin.example.com', deploymentKey: 'good-key-123' });
      const before = await snapshot(dist);
      expect(Object.keys(before)).toEqual(expect.arrayContaining(['manifest.xml', 'functions.js', 'functions.json', 'taskpane.html']));
      await expect(buildAddin({ outDir: dist, origin: 'https://addin.example.com', deploymentKey: 'not a valid key' })).rejects.toThrow(/deployment key/);
      await expect(buildAddin({ outDir: dist, origin: 'http://not-https.example.com' })).rejects.toThrow(/https/);
      expect(await snapshot(dist)).toEqual(before);
      expect(await readdir(parent)).toEqual(['dist']);
      // And a good build replaces it whole.
      await buildAddin({ outDir: dist, origin: 'https://other.example.com' });
      expect(await readFile(path.join(dist, 'manifest.xml'), 'utf8')).toContain('https://other.example.com/taskpane.html');
      expect(await readdir(parent)).toEqual(['dist']);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe('addin:serve', () => {
  it('without a trusted certificate, exits by itself with code 2 naming ADDIN_TLS_CERT and ADDIN_TLS_KEY, before building or listening', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'svc-addin-nohome-'));
    try {
      // The host command as the suite compiled it from this tree (fixtures/commands.ts), as `npm run addin:serve` runs dist/.
      const r = await run(process.execPath, commandArgs('addin-serve'), { HOME: home, ADDIN_PORT: '0' });
      expect(r.killed, 'addin:serve hung').toBe(false);
      expect(r.code).toBe(2);
      expect(r.out).toMatch(/ADDIN_TLS_CERT and ADDIN_TLS_KEY/);
      expect(r.out).toMatch(/openssl req -x509/);
      expect(r.out).not.toMatch(/Add-in host on|building the add-in/);
      expect(r.out).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
