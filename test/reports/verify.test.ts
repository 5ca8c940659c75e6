import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, RunManifest, publicBaseUrl } from '../../reports/run-manifest';
import { verifyDirectory } from '../../reports/verify';
import { runCli, serviceEnv, tempDir, testSandbox, type CliResult, type TestSandbox } from './helpers';

/** Portfolios named in six scripts: Latin, Greek, Cyrillic, Chinese, Japanese, Korean. */
const NAMES = ['Whitcombe Trust', 'Παπαδόπουλος', 'Смирнов', '陳大文', '山田家', '김철수'];
const INPUT = [
  'portfolio,segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency',
  ...NAMES.flatMap((name, i) => [
    `${name},watches,Rolex,Submariner Date,126610LN,2021,excellent,1,${9000 + i * 100},2021-05-1${i},USD`,
    `${name},watches,Omega,Speedmaster Professional,310.30.42.50.01.001,2020,very_good,1,${5000 + i * 50},2020-03-0${i + 1},USD`,
  ]),
].join('\n') + '\n';

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const hashes = (dir: string) => Object.fromEntries(readdirSync(dir).filter((n) => !n.startsWith('.')).sort().map((n) => [n, sha(join(dir, n))]));

let sb: TestSandbox;
let work: string;
let input: string;
let first: string;
let second: string;
let run1: CliResult;

beforeAll(async () => {
  sb = await testSandbox();
  work = tempDir('svc-report-verify-');
  input = join(work, 'clients.csv');
  writeFileSync(input, INPUT);
  first = join(work, 'first');
  second = join(work, 'second');
  // The helper fixes SOURCE_DATE_EPOCH for every run; the credentials are in the environment.
  const env = serviceEnv(sb);
  // Every format, the web page (issue 38) included: each file is vouched for, reproduced and checked alike.
  const formats = ['--formats', 'xlsx,csv,json,pdf,html'];
  run1 = await runCli(['run', input, '--out', first, '--as-of', '2026-10-31', ...formats], env);
  await runCli(['run', input, '--out', second, '--as-of', '2026-10-31', ...formats], env);
}, 300_000);
afterAll(async () => {
  await sb?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('manifest.json and svc-report verify', () => {
  it('writes manifest.json beside the reports: every file with SHA-256 and size, the input, the service, the as-of day, the version', () => {
    expect(run1.code, run1.stderr).toBe(0);
    const manifest = RunManifest.parse(JSON.parse(readFileSync(join(first, MANIFEST_FILE), 'utf8')));
    const onDisk = readdirSync(first).filter((n) => n !== MANIFEST_FILE && !n.startsWith('.')).sort();
    expect(manifest.files.map((f) => f.name)).toEqual(onDisk);
    // Six portfolios and the consolidated report, five formats each, every name in its own script.
    expect(onDisk).toHaveLength(35);
    for (const name of ['山田家', '陳大文', '김철수', 'смирнов', 'παπαδοπουλος']) for (const ext of ['pdf', 'html']) expect(onDisk).toContain(`${name}-2026-10-31.${ext}`);
    expect(onDisk).toContain('consolidated-2026-10-31.html');
    for (const f of manifest.files) {
      expect(f.sha256).toBe(sha(join(first, f.name)));
      expect(f.bytes).toBe(readFileSync(join(first, f.name)).length);
    }
    expect(manifest.inputs).toEqual([{ name: 'clients.csv', sha256: sha(input), bytes: Buffer.byteLength(INPUT) }]);
    expect(manifest.service.base_url).toBe(new URL(sb.url).origin + new URL(sb.url).pathname);
    expect(manifest.valuations_as_of).toBe('2026-10-31');
    expect(manifest.source_date_epoch).toBe(1793491200);
    expect(manifest.tool.version).toMatch(/^\d+\.\d+\.\d+/);
    const raw = readFileSync(join(first, MANIFEST_FILE), 'utf8');
    expect(raw).not.toContain('demo-enterprise-secret');
  });

  it('records a service URL without user, password, query or fragment', () => {
    expect(publicBaseUrl('https://user:pw@svc.example.com:8443/v1?token=abc#x')).toBe('https://svc.example.com:8443/v1');
    expect(publicBaseUrl(undefined)).toBeNull();
  });

  it('two runs with SOURCE_DATE_EPOCH on the same input give byte-identical files, PDFs, workbooks and web pages included', () => {
    const a = hashes(first);
    const b = hashes(second);
    expect(Object.keys(a).length).toBe(36);
    expect(b).toEqual(a);
  });

  it('passes an untouched folder and names any file with one changed byte', async () => {
    const clean = await verifyDirectory(first);
    expect(clean.changed).toEqual([]);
    expect(clean.missing).toEqual([]);
    for (const name of readdirSync(first).filter((n) => n !== MANIFEST_FILE && !n.startsWith('.'))) {
      const file = join(first, name);
      const original = readFileSync(file);
      const tampered = Buffer.from(original);
      const at = Math.floor(tampered.length / 2);
      tampered[at] = tampered[at]! ^ 0x01;
      writeFileSync(file, tampered);
      try {
        const r = await verifyDirectory(first);
        expect(r.changed, name).toEqual([name]);
      } finally {
        writeFileSync(file, original);
      }
    }
  }, 120_000);

  it('svc-report verify exits 0 on a good folder, 1 naming a changed and a missing file, 2 without a manifest', async () => {
    const ok = await runCli(['verify', first]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Verified: all 35 files/);

    const pdf = join(second, '山田家-2026-10-31.pdf');
    const bytes = readFileSync(pdf);
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0x20;
    writeFileSync(pdf, bytes);
    rmSync(join(second, 'смирнов-2026-10-31.csv'));
    const page = join(second, '陳大文-2026-10-31.html');
    writeFileSync(page, readFileSync(page, 'utf8').replace('</body>', '<script>alert(1)</script></body>'));
    const bad = await runCli(['verify', second]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('CHANGED  山田家-2026-10-31.pdf');
    // A script added makes the page larger than recorded: not even read, and the folder fails.
    expect(bad.stdout).toMatch(/NOT READ 陳大文-2026-10-31\.html: is \d+ bytes, more than the \d+ allowed/);
    expect(bad.stdout).toContain('MISSING  смирнов-2026-10-31.csv');
    expect(bad.stdout).toMatch(/Verification FAILED/);

    const none = await runCli(['verify', work]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/manifest\.json: there is none/);
  });

  it("dashboard into a month-end folder leaves the month-end's record as it was; verify still passes", async () => {
    const before = RunManifest.parse(JSON.parse(readFileSync(join(first, MANIFEST_FILE), 'utf8')));
    const d = await runCli(['dashboard', '--out', first, '--as-of', '2026-11-25', '--formats', 'json,html'], serviceEnv(sb));
    expect(d.code, d.stderr).toBe(0);
    const after = RunManifest.parse(JSON.parse(readFileSync(join(first, MANIFEST_FILE), 'utf8')));
    const record = (m: RunManifest) => ({ command: m.command, generated_at: m.generated_at, valuations_as_of: m.valuations_as_of, inputs: m.inputs, service: m.service });
    expect(record(after)).toEqual(record(before));
    expect(after.runs!.map((r) => [r.command, r.valuations_as_of])).toEqual([
      ['run', '2026-10-31'],
      ['dashboard', '2026-11-25'],
    ]);
    expect(after.files.map((f) => f.name)).toContain('market-dashboard-2026-11-25.html');
    const ok = await runCli(['verify', first]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Verified: all 37 files .* valuations as of 2026-10-31/);
  });

  it('a json-only rerun removes the earlier run’s other formats of the same reports and says so', async () => {
    const one = join(work, 'one.csv');
    writeFileSync(one, INPUT.split('\n').slice(0, 3).join('\n') + '\n');
    const out = join(work, 'rerun');
    expect((await runCli(['run', one, '--out', out, '--as-of', '2026-10-31'], serviceEnv(sb))).code).toBe(0);
    const rerun = await runCli(['run', one, '--out', out, '--as-of', '2026-10-31', '--formats', 'json'], serviceEnv(sb));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/Removed 3 files an earlier run wrote for the same reports in formats this run did not write \(whitcombe-trust-2026-10-31\.csv, whitcombe-trust-2026-10-31\.pdf, whitcombe-trust-2026-10-31\.xlsx\)/);
    expect(readdirSync(out).filter((n) => !n.startsWith('.')).sort()).toEqual([MANIFEST_FILE, 'whitcombe-trust-2026-10-31.json']);
    expect((await runCli(['verify', out])).code).toBe(0);
  });
});
