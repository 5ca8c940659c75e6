import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, RunManifest, writeManifest } from '../../reports/run-manifest';
import { verifyDirectory } from '../../reports/verify';

const dir = mkdtempSync(join(tmpdir(), 'svc-report-manifest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { generatedAt: '2026-11-01T00:00:00.000Z', env: {}, baseUrl: undefined, sandbox: true, asOf: '2026-10-31' };

describe('manifest.json of a folder written by more than one command', () => {
  it('keeps the entries of files an earlier run wrote when the dashboard is written beside them', async () => {
    writeFileSync(join(dir, 'client-2026-10-31.csv'), 'a,b\n1,2\n');
    writeFileSync(join(dir, 'holdings.csv'), 'input\n');
    await writeManifest(dir, { ...base, command: 'run', inputs: [join(dir, 'holdings.csv')], files: [join(dir, 'client-2026-10-31.csv')] });
    writeFileSync(join(dir, 'market-dashboard-2026-10-31.json'), '{}\n');
    await writeManifest(dir, { ...base, command: 'dashboard', inputs: [], files: [join(dir, 'market-dashboard-2026-10-31.json')] });
    const m = RunManifest.parse(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')));
    expect(m.files.map((f) => f.name)).toEqual(['client-2026-10-31.csv', 'market-dashboard-2026-10-31.json']);
    expect(m.inputs.map((f) => f.name)).toEqual(['holdings.csv']);
    expect(m.source_date_epoch).toBeNull();
    expect(m.service).toEqual({ base_url: null, sandbox: true });
    const r = await verifyDirectory(dir);
    expect(r.changed).toEqual([]);
    expect(r.missing).toEqual([]);
    // The input is in the folder but not a product of the run: named, not failed.
    expect(r.unlisted).toEqual(['holdings.csv']);
  });
});
