import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { csvFile, runCli, tempDir, watchRows } from './helpers';

let sb: RunningSandbox;
let dir: string;
beforeAll(async () => {
  dir = tempDir();
  // An Enterprise account with its own, custom limits: above the tier's published 1,000 a minute.
  sb = await startSandbox({ port: 0, quiet: true, accounts: [{ client_id: 'firm', client_secret: 'firm-secret', tier: 'enterprise', per_minute: 3000, per_day: 2_000_000 }] });
});
afterAll(() => sb?.close());

describe('svc-report run --tier enterprise on a custom-limit account', () => {
  it("the analyst notes name the service's stated limits as the ones in force", async () => {
    const file = join(dir, 'firm.csv');
    writeFileSync(file, csvFile(watchRows(5)));
    const r = await runCli(['run', file, '--out', join(dir, 'out'), '--formats', 'json', '--tier', 'enterprise', '--as-of', '2026-10-31'], {
      SVC_BASE_URL: sb.url,
      SVC_CLIENT_ID: 'firm',
      SVC_CLIENT_SECRET: 'firm-secret',
      SVC_SANDBOX: '1',
    });
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(r.stdout.trim(), 'utf8')) as { analyst_notes: string[] };
    expect(report.analyst_notes).toContain('Service limits in force for this run: 3,000 a minute and 2,000,000 a day, as the service states them for this account.');
  });
});
