/**
 * Issue 25 with issue 29's signed manifest: a folder whose manifest.json the firm signs (its
 * manifest key) stays signed through `approve` (the approvals are in the signed manifest, and
 * `verify` with the key passes), and `approve` refuses to build on a manifest rewritten without
 * the key: a forged approval never becomes a signed one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../reports/run-manifest';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

const REVIEWER = 'Ann Reviewer <ann@meridian.example>';
let sb: TestSandbox;
let dir: string;
let keyFile: string;

beforeAll(async () => {
  sb = await testSandbox();
  const work = tempDir('svc-report-signed-manifest-');
  keyFile = join(work, 'manifest.key');
  writeFileSync(keyFile, randomBytes(48).toString('base64'), { mode: 0o600 });
  writeFileSync(
    join(work, 'holdings.csv'),
    'portfolio,segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency\n' +
      'Okafor Household,watches,Rolex,Submariner Date,126610LN,2021,excellent,1,9000,2021-05-10,USD\n' +
      'Moreau Family,watches,Omega,Speedmaster Professional,310.30.42.50.01.001,2020,very_good,1,5000,2020-03-01,USD\n',
  );
  dir = join(work, '2026-10');
  const run = await runCli(['run', join(work, 'holdings.csv'), '--out', dir, '--as-of', '2026-10-31', '--formats', 'json,pdf,html', '--manifest-key', keyFile], serviceEnv(sb));
  expect(run.code, run.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  await sb?.close();
});

describe('approve in a folder with a signed manifest', () => {
  it('refuses to decide without the key on a signed manifest (it would lose its signature)', async () => {
    const before = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
    const approved = await runCli(['approve', dir, '--portfolio', 'Okafor Household', '--by', REVIEWER, '--db', 'off', '--allow-sandbox']);
    expect(approved.code).toBe(2);
    expect(approved.stderr).toMatch(/manifest\.json is signed with the firm's manifest key: give it \(--manifest-key FILE, SVC_MANIFEST_KEY or manifest_key_file in the config\)/);
    expect(readFileSync(join(dir, MANIFEST_FILE), 'utf8')).toBe(before);
  });

  it('records the approval in a manifest still signed under the key: verify with the key passes', async () => {
    const approved = await runCli(['approve', dir, '--portfolio', 'Okafor Household', '--by', REVIEWER, '--db', 'off', '--manifest-key', keyFile, '--allow-sandbox']);
    expect(approved.code, approved.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
    expect(manifest.approvals.map((a: { report: string }) => a.report)).toEqual(['okafor-household-2026-10-31']);
    expect(manifest.signature.alg).toBe('HMAC-SHA-256');
    const verified = await runCli(['verify', dir, '--manifest-key', keyFile, '--require-signature']);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/Verified: all \d+ files/);
  });

  it("covers the web page (issue 38): a page changed and its manifest entry rewritten to match, without the key, fails verify on the signature", async () => {
    const file = join(dir, MANIFEST_FILE);
    const before = readFileSync(file, 'utf8');
    const page = join(dir, 'moreau-family-2026-10-31.html');
    const original = readFileSync(page);
    // What someone with write access to the folder but not the key would do: a new page, and its hash where the old one was.
    const forged = Buffer.from(original.toString('utf8').replace('</body>', '<p>Figures revised</p></body>'));
    const manifest = JSON.parse(before);
    const entry = manifest.files.find((f: { name: string }) => f.name === 'moreau-family-2026-10-31.html');
    expect(entry).toBeDefined();
    Object.assign(entry, { sha256: createHash('sha256').update(forged).digest('hex'), bytes: forged.length });
    writeFileSync(page, forged);
    writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
    try {
      // Without the key the files match their entries; with it, the manifest's signature fails.
      expect((await runCli(['verify', dir])).stdout).not.toMatch(/CHANGED/);
      const verified = await runCli(['verify', dir, '--manifest-key', keyFile]);
      expect(verified.code).toBe(1);
      expect(verified.stdout).toMatch(/manifest\.json's signature fails/);
    } finally {
      writeFileSync(page, original);
      writeFileSync(file, before);
    }
  });

  it('refuses to approve on a manifest rewritten without the key (a forged approval), and verify names it', async () => {
    const file = join(dir, MANIFEST_FILE);
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    // Someone with write access to the folder forges an approval of the other report, keeping the old signature.
    manifest.approvals.push({ ...manifest.approvals[0], report: 'moreau-family-2026-10-31', portfolio: 'Moreau Family', files: [] });
    writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
    const approved = await runCli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--db', 'off', '--manifest-key', keyFile, '--allow-sandbox']);
    expect(approved.code).toBe(2);
    expect(approved.stderr).toMatch(/manifest\.json does not verify under the manifest key/);
    expect(approved.stderr).not.toMatch(/\n\s+at /);
    // Nothing was decided: the forged manifest is as it was written.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(manifest);
    const verified = await runCli(['verify', dir, '--manifest-key', keyFile]);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(/manifest\.json/);
  });
});
