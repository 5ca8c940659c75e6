import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstreamProxy, type UpstreamProxy } from '../addin/upstream-proxy';
import { csvFile, runCli, serviceEnv, tempDir, testSandbox, watchRows, type TestSandbox } from './helpers';

/**
 * Honest exit codes: a report section left out because the service failed makes the run end
 * with exit 3, naming the portfolio and the section; a tier that lacks a scope stays exit 0.
 */
let sb: TestSandbox;
let failing: UpstreamProxy;
let dir: string;
beforeAll(async () => {
  sb = await testSandbox();
  // The service's portfolio analytics down (every try answered 503); valuations, scores, projections and exits as usual.
  failing = await startUpstreamProxy(sb.url, { fail: (method, path) => (method === 'POST' && path === '/v1/portfolio' ? 503 : undefined) });
  dir = tempDir();
});
afterAll(async () => {
  await failing?.close();
  await sb?.close();
});

describe('a section the service failed to give', () => {
  it('exit 3, the portfolio and the section named on stderr, every holding still valued', async () => {
    const file = join(dir, 'ortiz.csv');
    writeFileSync(file, csvFile(watchRows(6)));
    const r = await runCli(['run', file, '--out', join(dir, 'out'), '--formats', 'json', '--as-of', '2026-10-31'], { ...serviceEnv(sb), SVC_BASE_URL: failing.url });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/"ortiz": its performance against benchmarks section is left out of its report because the service failed \(performance against benchmarks could not be fetched: The service is temporarily unavailable\); run the same command again later to include it\./);
    expect(r.stderr).toMatch(/Done with problems: 1 report section left out because the service failed \(named above\)/);
    expect(r.stderr).not.toMatch(/Done: every holding valued/);
    const report = JSON.parse(readFileSync(r.stdout.trim(), 'utf8')) as { summary: { asset_count: number }; benchmarks: { included: boolean } };
    expect(report.summary.asset_count).toBe(6);
    expect(report.benchmarks.included).toBe(false);
  });

  it('a tier without the scope is not a failure: exit 0, noted for the analyst', async () => {
    const file = join(dir, 'starter.csv');
    writeFileSync(file, csvFile(watchRows(3)));
    const r = await runCli(['run', file, '--out', join(dir, 'starter-out'), '--formats', 'json', '--as-of', '2026-10-31'], serviceEnv(sb, 'demo-starter'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/left out of its report because the service failed/);
    expect(r.stderr).toMatch(/Done: every holding valued/);
  });
});
