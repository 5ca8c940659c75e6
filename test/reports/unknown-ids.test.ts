/**
 * Issue 27, "an asset id the service did not issue is a row error unless --allow-unknown-ids",
 * through the real command against the sandbox over HTTP: the review's SVC-WAT-NOSUCH-XYZ-2021
 * among good rows (a catalogue model by id, described watches, a brand the sandbox does not
 * list) is refused by row and field in the JSON report and on stderr while the others are
 * valued (exit 3); with --allow-unknown-ids, or allow_unknown_ids in the config, it is valued
 * from the details its id encodes and the analyst is told (exit 0).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/** Each test runs the command once or twice, each start-up a few seconds on a loaded 2-core machine. */
const LOADED_MACHINE_MS = 240_000;
const UNKNOWN = 'SVC-WAT-NOSUCH-XYZ-2021';

let sb: TestSandbox;
let dir: string;
let file: string;
beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-unknown-ids-');
  file = join(dir, 'nosuch.csv');
  writeFileSync(
    file,
    [
      'asset_id,segment,brand,model,reference,year,purchase_price,purchase_date,currency',
      ',watches,Rolex,Submariner Date,126610LN,2021,13200,2022-03-14,USD',
      'SVC-WAT-ROLEX-116500LN-2020,,,,,,25000,2021-05-01,USD',
      `${UNKNOWN},,,,,,20000,2022-03-14,USD`,
      // A brand the sandbox does not list, described: valued from its descriptors as before.
      ',watches,Obscure Maker,Tourbillon One,,2019,5000,2021-01-01,USD',
      ',watches,Omega,Speedmaster Moonwatch Professional,310.30.42.50.01.001,2021,6900,2022-01-01,USD',
    ].join('\n') + '\n',
  );
}, 60_000);
afterAll(async () => {
  await sb?.close();
});

async function run(name: string, extra: string[] = []) {
  const out = join(dir, name);
  const r = await runCli(['run', file, '--out', out, '--formats', 'json', '--as-of', '2026-10-31', ...extra], serviceEnv(sb));
  const json = r.stdout.trim() ? readJson(r.stdout.trim().split('\n')[0]!) : undefined;
  return { r, json };
}

type Row = { row: number; asset_id: string; current_value: number };
type Problem = { row: number; field: string; message: string };

describe('an asset id the service did not issue', { timeout: LOADED_MACHINE_MS }, () => {
  it('is a row error naming the row, the asset_id field and what is allowed; the other rows are valued; exit 3', async () => {
    const { r, json } = await run('refused');
    expect(r.code, r.stderr).toBe(3);
    const holdings = json.holdings as Row[];
    expect(holdings.map((h) => h.row)).toEqual([2, 3, 5, 6]);
    expect(holdings.map((h) => h.asset_id)).not.toContain(UNKNOWN);
    for (const h of holdings) expect(h.current_value).toBeGreaterThan(0);
    const errors = json.errors as Problem[];
    expect(errors).toEqual([expect.objectContaining({ row: 4, field: 'asset_id' })]);
    expect(errors[0]!.message).toContain(UNKNOWN);
    expect(errors[0]!.message).toMatch(/not one the service issued: give an asset id the service issued, such as SVC-WAT-\S+/);
    expect(errors[0]!.message).toContain('--allow-unknown-ids');
    expect(r.stderr).toMatch(new RegExp(`row 4, asset_id: .*${UNKNOWN} is not one the service issued`));
    expect(r.stderr).not.toMatch(/every holding valued/);
  });

  it('with --allow-unknown-ids is valued from the details its id encodes, noted for the analyst; exit 0', async () => {
    const { r, json } = await run('allowed', ['--allow-unknown-ids']);
    expect(r.code, r.stderr).toBe(0);
    expect(json.errors).toEqual([]);
    const holdings = json.holdings as Row[];
    expect(holdings.map((h) => h.row)).toEqual([2, 3, 4, 5, 6]);
    const unknown = holdings.find((h) => h.row === 4)!;
    expect(unknown.asset_id).toBe(UNKNOWN);
    expect(unknown.current_value).toBeGreaterThan(0);
    const note = new RegExp(`row 4 .*${UNKNOWN} is not one the service issued; it was valued from the details the row gives`);
    expect((json.analyst_notes as string[]).some((n) => note.test(n))).toBe(true);
    expect(r.stderr).toMatch(note);
  });

  it('allow_unknown_ids in the config file does the same', async () => {
    const config = join(dir, 'firm.config.json');
    writeFileSync(config, JSON.stringify({ allow_unknown_ids: true }));
    const { r, json } = await run('allowed-by-config', ['--config', config]);
    expect(r.code, r.stderr).toBe(0);
    expect((json.holdings as Row[]).map((h) => h.row)).toContain(4);
  });
});
