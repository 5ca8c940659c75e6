import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox';
import { csvFile, runCli, serviceEnv, tempDir, testSandbox, watchRows, type TestSandbox } from './helpers';

let clean: TestSandbox;
let faulty: { url: string; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  clean = await testSandbox();
  dir = tempDir();
  faulty = await startSandbox({ port: 0, quiet: true, faults: 'error=0.2,drop=0.05,latency=5-30', seed: 11, logFile: join(dir, 'faulty.jsonl') });
});
afterAll(async () => {
  await Promise.all([clean?.close(), faulty?.close()]);
});

describe('svc-report run against an unreliable service', () => {
  it('retries through 5xx answers and dropped connections and writes the same report as against a reliable one', async () => {
    const file = join(dir, 'flaky.csv');
    writeFileSync(file, csvFile(watchRows(120)));
    const args = (out: string) => ['run', file, '--out', join(dir, out), '--formats', 'json', '--as-of', '2026-10-31'];
    const [a, b] = await Promise.all([runCli(args('clean'), serviceEnv(clean)), runCli(args('faulty'), serviceEnv(faulty))]);
    expect(b.stderr).not.toMatch(/unexpected error/);
    expect([a.code, b.code]).toEqual([0, 0]);
    const json = readFileSync(b.stdout.trim(), 'utf8');
    expect(json).toBe(readFileSync(a.stdout.trim(), 'utf8'));
    expect(JSON.parse(json).summary.asset_count).toBe(120);
    // The faults did happen: the service answered some requests with a 5xx.
    const statuses = readFileSync(join(dir, 'faulty.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).status as number);
    expect(statuses.filter((s) => s >= 500).length).toBeGreaterThan(0);
  });
});
