/**
 * Issue 25 with issue 29's signed manifest: a folder whose manifest.json the firm signs (its
 * manifest key) stays signed through `approve` (the approvals are in the signed manifest, and
 * `verify` with the key passes), and `approve` refuses to build on a manifest rewritten without
 * the key: a forged approval never becomes a signed one.
 */
import { randomBytes } from 'node:crypto';
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
  const run = await runCli(['run', join(work, 'holdings.csv'), '--out', dir, '--as-of', '2026-10-31', '--formats', 'json,pdf', '--manifest-key', keyFile], serviceEnv(sb));
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
