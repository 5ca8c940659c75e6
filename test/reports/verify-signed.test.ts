import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../reports/run-manifest';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/**
 * Issue 29: manifest.json signed under the firm's key, and `verify` trusting nothing in the
 * folder: a recomputed manifest, an empty or malformed one, a FIFO or a link to /dev/zero in
 * place of a report. Each `verify` here runs as a process; a hang fails by the test's own timeout.
 */
const KEY = 'k'.repeat(20) + '-firm-manifest-key-2026';
let sb: TestSandbox;
let work: string;
let signed: string;
let unsigned: string;
let input: string;

const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');
const copy = (from: string, name: string) => {
  const to = join(work, name);
  cpSync(from, to, { recursive: true });
  return to;
};
const REPORT = 'whitcombe-trust-2026-10-31.json';
type Manifest = { files: { name: string; sha256: string; bytes: number }[]; signature?: { alg: string; key_id: string; value: string } };
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;

beforeAll(async () => {
  sb = await testSandbox();
  work = tempDir('svc-report-verify-signed-');
  input = join(work, 'clients.csv');
  writeFileSync(
    input,
    'portfolio,segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency\nWhitcombe Trust,watches,Rolex,Submariner Date,126610LN,2021,excellent,1,9000,2021-05-10,USD\n',
  );
  signed = join(work, 'signed');
  unsigned = join(work, 'unsigned');
  const a = await runCli(['run', input, '--out', signed, '--as-of', '2026-10-31', '--formats', 'json,csv'], { ...serviceEnv(sb), SVC_MANIFEST_KEY: KEY });
  expect(a.code, a.stderr).toBe(0);
  expect(a.stderr + a.stdout).not.toContain(KEY);
  const b = await runCli(['run', input, '--out', unsigned, '--as-of', '2026-10-31', '--formats', 'json,csv'], serviceEnv(sb));
  expect(b.code, b.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await sb?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a signed manifest', () => {
  it('carries an HMAC-SHA-256 signature object naming its key by id, never the key', () => {
    const m = manifestOf(signed);
    expect(m.signature).toEqual({ alg: 'HMAC-SHA-256', key_id: expect.stringMatching(/^[0-9a-f]{16}$/), value: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(readFileSync(join(signed, MANIFEST_FILE), 'utf8')).not.toContain(KEY);
    expect(manifestOf(unsigned).signature).toBeUndefined();
  });

  it('verifies with the key from SVC_MANIFEST_KEY, --manifest-key FILE or manifest_key_file in the config', async () => {
    const keyFile = join(work, 'manifest.key');
    writeFileSync(keyFile, KEY + '\n', { mode: 0o600 });
    const config = join(work, 'verify-config.json');
    writeFileSync(config, JSON.stringify({ manifest_key_file: keyFile }));
    for (const [args, env] of [
      [[], { SVC_MANIFEST_KEY: KEY }],
      [['--manifest-key', keyFile], {}],
      [['--config', config], {}],
    ] as const) {
      const r = await runCli(['verify', signed, ...args], env);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/SIGNED {3}manifest\.json: its signature verifies under the configured manifest key/);
      expect(r.stdout + r.stderr).not.toContain(KEY);
    }
  });

  it('fails (exit 1), naming the manifest, when a report was edited and the manifest recomputed without the key', async () => {
    for (const keepSignature of [true, false]) {
      const dir = copy(signed, `recomputed-${keepSignature}`);
      const original = readFileSync(join(dir, REPORT), 'utf8');
      const edited = Buffer.from(original.replace(/"total_invested": ?(\d)/, '"total_invested": 9$1'));
      expect(edited.toString()).not.toBe(original);
      writeFileSync(join(dir, REPORT), edited);
      const m = manifestOf(dir);
      const entry = m.files.find((f) => f.name === REPORT)!;
      entry.sha256 = sha(edited);
      entry.bytes = edited.length;
      if (!keepSignature) delete m.signature;
      writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m, null, 2));

      const withKey = await runCli(['verify', dir], { SVC_MANIFEST_KEY: KEY });
      expect(withKey.code, withKey.stdout).toBe(1);
      expect(withKey.stdout).toMatch(keepSignature ? /SIGNATURE manifest\.json: its signature does not verify under the configured key/ : /SIGNATURE manifest\.json: it is unsigned, but a manifest key is configured/);
      expect(withKey.stdout).toMatch(/Verification FAILED .*manifest\.json's signature fails/);
      // Without the key the files match the manifest: integrity only, said so.
      const withoutKey = await runCli(['verify', dir]);
      expect(withoutKey.stdout).toMatch(/integrity only, not authenticity/);
    }
  });

  it('a signed write into a folder whose earlier manifest does not verify does not vouch for its files, and says so', async () => {
    const dir = copy(unsigned, 'dashboard-into-unsigned');
    const d = await runCli(['dashboard', '--out', dir, '--as-of', '2026-11-25', '--formats', 'json'], { ...serviceEnv(sb), SVC_MANIFEST_KEY: KEY });
    expect(d.code, d.stderr).toBe(0);
    expect(d.stderr).toMatch(/earlier manifest\.json did not verify under the manifest key .* 2 files it listed are not in the new signed one \(whitcombe-trust-2026-10-31\.csv, whitcombe-trust-2026-10-31\.json\)/);
    expect(manifestOf(dir).files.map((f) => f.name)).not.toContain(REPORT);
    const r = await runCli(['verify', dir], { SVC_MANIFEST_KEY: KEY });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`UNLISTED ${REPORT}`);
  });

  it('fails with another key, naming both key ids', async () => {
    const r = await runCli(['verify', signed], { SVC_MANIFEST_KEY: 'another-key-'.repeat(4) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/signed with another key \(key_id [0-9a-f]{16}\), not the configured one \(key_id [0-9a-f]{16}\)/);
  });

  it('refuses a key shorter than 32 bytes (exit 2) without printing it', async () => {
    const r = await runCli(['verify', signed], { SVC_MANIFEST_KEY: 'short-secret' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/SVC_MANIFEST_KEY: the manifest key must be at least 32 bytes/);
    expect(r.stderr + r.stdout).not.toContain('short-secret');
  });
});

describe('an unsigned manifest', () => {
  it('passes with a warning, integrity only; fails with --require-signature; fails when a key is configured', async () => {
    const plain = await runCli(['verify', unsigned]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/Warning: manifest\.json is unsigned: integrity only, not authenticity/);
    expect(plain.stdout).toMatch(/Verified: all 2 files/);
    const required = await runCli(['verify', unsigned, '--require-signature']);
    expect(required.code).toBe(1);
    expect(required.stdout).toMatch(/UNSIGNED manifest\.json is unsigned/);
    expect((await runCli(['verify', unsigned], { SVC_MANIFEST_KEY: KEY })).code).toBe(1);
    // Signed, but no key to check it with: the same warning, the same --require-signature.
    const unchecked = await runCli(['verify', signed, '--require-signature']);
    expect(unchecked.code).toBe(1);
    expect(unchecked.stdout).toMatch(/UNCHECKED manifest\.json is signed \(key_id [0-9a-f]{16}\) but no manifest key is configured/);
  });
});

describe('verify refuses a manifest that vouches for nothing', () => {
  it.each([
    ['an empty file', '', /manifest\.json is empty: it vouches for nothing/],
    ['whitespace', '  \n', /manifest\.json is empty/],
    ['malformed JSON', '{"files": [', /cannot read .*manifest\.json: not JSON/],
    ['a manifest listing no files', 'no-files', /manifest\.json lists no files: it vouches for nothing/],
    ['not a manifest', '{"files": "all"}', /is not a svc-report manifest/],
  ])('exit 1: %s', async (_, content, why) => {
    const dir = copy(unsigned, `bad-manifest-${content.length}-${Math.random().toString(36).slice(2)}`);
    const text = content === 'no-files' ? JSON.stringify({ ...manifestOf(dir), files: [] }) : content;
    writeFileSync(join(dir, MANIFEST_FILE), text);
    const r = await runCli(['verify', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(why);
    expect(r.stdout).not.toMatch(/Verified/);
  });

  it('exit 1 without hanging: the manifest itself a FIFO', async () => {
    const dir = copy(unsigned, 'manifest-fifo');
    rmSync(join(dir, MANIFEST_FILE));
    execFileSync('mkfifo', [join(dir, MANIFEST_FILE)]);
    const r = await runCli(['verify', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/manifest\.json: is not a regular file \(a FIFO\)/);
  }, 30_000);
});

describe('verify reads only regular files of the folder, within the recorded size', () => {
  it.each([
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p]), /NOT READ whitcombe-trust-2026-10-31\.json: is not a regular file \(a FIFO\); not read/],
    ['a link to /dev/zero', (p: string) => symlinkSync('/dev/zero', p), /NOT READ whitcombe-trust-2026-10-31\.json: is not a regular file \(a symbolic link\)/],
    ['a link to a file outside the folder', (p: string) => symlinkSync(input, p), /NOT READ whitcombe-trust-2026-10-31\.json: is not a regular file \(a symbolic link\)/],
    ['a file larger than recorded', (p: string) => writeFileSync(p, Buffer.alloc(10 * 1024 * 1024, 0x20)), /NOT READ whitcombe-trust-2026-10-31\.json: is 10485760 bytes, more than the \d+ allowed; not read/],
  ])('fails (exit 1), within the test timeout, for a listed report replaced by %s', async (name, replace, why) => {
    const dir = copy(unsigned, `replaced-${name.replace(/\W+/g, '-')}`);
    rmSync(join(dir, REPORT));
    replace(join(dir, REPORT));
    const r = await runCli(['verify', dir]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(why);
    expect(r.stdout).toMatch(/Verification FAILED .*1 not read/);
  }, 30_000);
});
