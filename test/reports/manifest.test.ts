import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, RunManifest, writeManifest } from '../../reports/run-manifest';
import { describeVerification, verifyDirectory } from '../../reports/verify';

const root = mkdtempSync(join(tmpdir(), 'svc-report-manifest-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const folder = () => {
  const dir = join(root, String(++n));
  mkdirSync(dir);
  return dir;
};

const base = { generatedAt: '2026-11-01T00:00:00.000Z', env: {}, baseUrl: undefined, sandbox: true, asOf: '2026-10-31' };
const manifestOf = (dir: string) => RunManifest.parse(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')));
const write = (dir: string, name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('manifest.json of a folder written by more than one command', () => {
  it("a dashboard beside a month-end adds its own run and never replaces the month-end's record", async () => {
    const dir = folder();
    const csv = write(dir, 'client-2026-10-31.csv', 'a,b\n1,2\n');
    const input = write(dir, 'holdings.csv', 'input\n');
    await writeManifest(dir, { ...base, command: 'run', inputs: [input], files: [csv] });
    const dashboard = write(dir, 'market-dashboard-2026-11-25.json', '{}\n');
    // The dashboard a month later: its own day, its own time.
    await writeManifest(dir, { ...base, generatedAt: '2026-11-25T09:00:00.000Z', asOf: '2026-11-25', command: 'dashboard', inputs: [], files: [dashboard] });
    const m = manifestOf(dir);
    expect([m.command, m.valuations_as_of, m.generated_at]).toEqual(['run', '2026-10-31', '2026-11-01T00:00:00.000Z']);
    expect(m.inputs.map((f) => f.name)).toEqual(['holdings.csv']);
    expect(m.runs!.map((r) => [r.command, r.valuations_as_of])).toEqual([
      ['run', '2026-10-31'],
      ['dashboard', '2026-11-25'],
    ]);
    const [monthEnd, dash] = m.runs!;
    expect(m.files.map((f) => [f.name, f.run_id])).toEqual([
      ['client-2026-10-31.csv', monthEnd!.run_id],
      ['market-dashboard-2026-11-25.json', dash!.run_id],
    ]);
    const r = await verifyDirectory(dir);
    expect([r.changed, r.missing, r.earlier]).toEqual([[], [], []]);
    expect(describeVerification(dir, r).lines.at(-1)).toMatch(/valuations as of 2026-10-31/);
    // The input is in the folder but not a product of the run: named, not failed.
    expect(r.unlisted).toEqual(['holdings.csv']);
  });

  it("a report's realised-gains CSV belongs to its report: a rerun without it (no ledger) removes the earlier one", async () => {
    const dir = folder();
    const input = write(dir, 'holdings.csv', 'input\n');
    const first = ['client-2026-10-31.csv', 'client-2026-10-31-realised-gains.csv'].map((name) => write(dir, name, `first ${name}\n`));
    await writeManifest(dir, { ...base, command: 'run', inputs: [input], files: first });
    const csv = write(dir, 'client-2026-10-31.csv', 'second csv\n');
    const result = await writeManifest(dir, { ...base, generatedAt: '2026-11-02T00:00:00.000Z', command: 'run', inputs: [input], files: [csv] });
    expect(result.removed).toEqual(['client-2026-10-31-realised-gains.csv']);
    expect(existsSync(join(dir, 'client-2026-10-31-realised-gains.csv'))).toBe(false);
    expect(manifestOf(dir).files.map((f) => f.name)).toEqual(['client-2026-10-31.csv']);
  });

  it('a rerun in fewer formats removes the earlier run’s other formats of the same report, and says which', async () => {
    const dir = folder();
    const input = write(dir, 'holdings.csv', 'input\n');
    const first = ['json', 'pdf', 'xlsx'].map((ext) => write(dir, `client-2026-10-31.${ext}`, `first ${ext}\n`));
    const other = write(dir, 'other-2026-10-31.pdf', 'another portfolio\n');
    await writeManifest(dir, { ...base, command: 'run', inputs: [input], files: [...first, other] });
    const json = write(dir, 'client-2026-10-31.json', 'second json\n');
    const result = await writeManifest(dir, { ...base, generatedAt: '2026-11-02T00:00:00.000Z', command: 'run', inputs: [input], files: [json] });
    expect(result.removed).toEqual(['client-2026-10-31.pdf', 'client-2026-10-31.xlsx']);
    expect(existsSync(join(dir, 'client-2026-10-31.pdf'))).toBe(false);
    const m = manifestOf(dir);
    expect(m.files.map((f) => f.name)).toEqual(['client-2026-10-31.json', 'other-2026-10-31.pdf']);
    expect(m.generated_at).toBe('2026-11-02T00:00:00.000Z');
    // Another portfolio's report from the first run stays, and verify names it as the earlier run's.
    const r = await verifyDirectory(dir);
    expect([r.changed, r.missing]).toEqual([[], []]);
    expect(r.earlier).toEqual([{ name: 'other-2026-10-31.pdf', generatedAt: '2026-11-01T00:00:00.000Z', asOf: '2026-10-31' }]);
    expect(describeVerification(dir, r).lines).toContain('EARLIER  other-2026-10-31.pdf: written by an earlier run (2026-11-01T00:00:00.000Z, valuations as of 2026-10-31), not by the run this folder\'s record describes');
  });

  it('reads a version 1 manifest and carries its files on as one earlier run', async () => {
    const dir = folder();
    const csv = write(dir, 'client-2026-09-30.csv', 'a\n');
    await writeManifest(dir, { ...base, command: 'run', inputs: [], files: [csv] });
    const v2 = manifestOf(dir);
    const v1 = { ...v2, manifest_version: 1, runs: undefined, files: v2.files.map(({ run_id: _drop, ...f }) => f) };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(v1));
    expect((await verifyDirectory(dir)).ok).toEqual(['client-2026-09-30.csv']);
    const dashboard = write(dir, 'market-dashboard-2026-10-31.json', '{}\n');
    await writeManifest(dir, { ...base, command: 'dashboard', inputs: [], files: [dashboard] });
    const m = manifestOf(dir);
    expect(m.manifest_version).toBe(2);
    expect(m.command).toBe('run');
    expect(m.runs!.map((r) => r.command)).toEqual(['run', 'dashboard']);
  });
});
