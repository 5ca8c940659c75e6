import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHoldingsGrid } from '../../addin/src/shared/holdings';
import { InputError as CellInputError } from '../../addin/src/shared/input-error';
import { valueHoldingsTable } from '../../addin/src/functions/holdings-table';
import { nearestColumn } from '../../src/holdings/columns';
import { readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/**
 * Issue 27, "every column is read or explained", through the real command: a header a slip away
 * from a column stops the run before any call (its values would silently change money and
 * quantities); --ignore-column and ignore_columns leave one out on purpose; a header like no
 * column is a warning and an analyst's note.
 */

/** Each test starts the command once or twice, a few seconds each on a loaded 2-core machine. */
const LOADED_MACHINE_MS = 240_000;

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-columns-');
  // The runs that go on convert GBP and EUR purchases to USD: a plain rates file.
  writeFileSync(join(dir, 'rates.csv'), 'date,currency,rate_per_eur\n2026-10-30,USD,1.08\n2026-10-30,GBP,0.84\n2022-03-14,USD,1.10\n2022-03-14,GBP,0.83\n2020-06-01,USD,1.12\n2020-06-01,GBP,0.90\n');
});
afterAll(async () => {
  await sb?.close();
});

const ROWS = ['watches,Rolex,Submariner Date,126610LN,2021,11000,2022-03-14,GBP,1', 'wine,Petrus,Pomerol,,2010,85000,2020-06-01,EUR,6'];

/** A holdings file whose last two headers are `currency` and `quantity` as given (misspelt or not). */
function holdings(name: string, currency: string, quantity: string, extra = ''): string {
  const file = join(dir, `${name}.csv`);
  const head = `segment,brand,model,reference,year,purchase_price,purchase_date,${currency},${quantity}${extra ? `,${extra}` : ''}`;
  writeFileSync(file, [head, ...ROWS.map((r) => (extra ? `${r},x` : r))].join('\n') + '\n');
  return file;
}

const calls = async () => (await sb.log()).length;

async function run(file: string, out: string, extra: string[] = []) {
  return runCli(['run', file, '--out', out, '--formats', 'json', '--as-of', '2026-10-31', '--currency', 'USD', ...extra], serviceEnv(sb));
}

describe('a header close to a column stops the run', { timeout: LOADED_MACHINE_MS }, () => {
  it('"Curency": exit 2 before any call, naming the file and the header, "did you mean currency"', async () => {
    const file = holdings('curency', 'Curency', 'quantity');
    const out = join(dir, 'curency-out');
    const before = await calls();
    const r = await run(file, out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/"Curency" \(did you mean currency\?\)/);
    expect(r.stderr).toContain('--ignore-column "Curency"');
    expect(r.stderr).toContain("every price would be taken to be in the report's currency");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    expect(await calls()).toBe(before);
  });

  it('"Quantiy": exit 2, "did you mean quantity"; with --ignore-column Quantiy the run goes on and says so to the analyst', async () => {
    const file = holdings('quantiy', 'currency', 'Quantiy');
    const stopped = await run(file, join(dir, 'quantiy-out'));
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toMatch(/"Quantiy" \(did you mean quantity\?\)/);

    const out = join(dir, 'quantiy-ignored-out');
    const r = await run(file, out, ['--fx-rates', join(dir, 'rates.csv'), '--ignore-column', 'Quantiy', '--ignore-column', 'Nope']);
    expect(r.stderr).not.toContain('did you mean');
    expect(r.code).toBe(0);
    // A name that matches no header changes nothing, and says so.
    expect(r.stderr).toContain('"Nope" (--ignore-column or ignore_columns) names no unread column');
    const json = readJson(r.stdout.trim().split('\n')[0]!);
    expect(json.analyst_notes).toContainEqual(expect.stringMatching(/"Quantiy".*left out as asked/));
  });

  it('ignore_columns in the config file leaves a column out on purpose too', async () => {
    const file = holdings('curency-config', 'Curency', 'quantity');
    const config = join(dir, 'ignore.config.json');
    writeFileSync(config, JSON.stringify({ ignore_columns: ['Curency'] }));
    const r = await run(file, join(dir, 'curency-config-out'), ['--config', config]);
    expect(r.stderr).not.toContain('did you mean');
    expect(r.code).toBe(0);
  });
});

describe('a header like no column', { timeout: LOADED_MACHINE_MS }, () => {
  it('"Colour" is a warning on stderr and a note in the JSON report\'s analyst_notes', async () => {
    const file = holdings('colour', 'currency', 'quantity', 'Colour');
    const r = await run(file, join(dir, 'colour-out'), ['--fx-rates', join(dir, 'rates.csv')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${file}: ignored unknown column(s) Colour`);
    const json = readJson(r.stdout.trim().split('\n')[0]!);
    expect(json.analyst_notes).toContainEqual(expect.stringMatching(/"Colour" resemble no column the reports read/));
  });
});

describe('what counts as close', () => {
  it('a slip away from a column or an alias is close; short names take one slip only', () => {
    expect(nearestColumn('Curency')).toBe('currency');
    expect(nearestColumn('Quantiy')).toBe('quantity');
    expect(nearestColumn('Purchse Price')).toBe('purchase_price');
    expect(nearestColumn('Qtyy')).toBe('quantity');
    for (const unrelated of ['Colour', 'No', 'Place', 'Bin', 'Location', 'Vault']) expect(nearestColumn(unrelated)).toBeUndefined();
  });

  it('the add-in reads a close miss as a problem with the header named, not a crash and not a valuation', () => {
    const grid = [
      ['segment', 'brand', 'model', 'purchase_price', 'purchase_date', 'Quantiy'],
      ['wine', 'Petrus', 'Pomerol', 85000, '2020-06-01', 6],
    ];
    const read = readHoldingsGrid(grid, { purpose: 'report' });
    expect(read.columnProblem).toMatch(/"Quantiy" \(did you mean quantity\?\)/);
    expect(readHoldingsGrid([grid[0]!.slice(0, 5), grid[1]!.slice(0, 5)]).columnProblem).toBeUndefined();
  });

  it('SVC.VALUEHOLDINGS refuses such a table with that sentence (#VALUE! naming the argument) before valuing a row', async () => {
    const grid = [
      ['segment', 'brand', 'model', 'Curency'],
      ['watches', 'Rolex', 'Submariner Date', 'GBP'],
    ];
    // No runtime is set up: reaching the valuation would fail otherwise than with this error.
    const refused = valueHoldingsTable(grid, 'USD', { signal: AbortSignal.abort(), preview: true, servedStale: () => {} });
    await expect(refused).rejects.toBeInstanceOf(CellInputError);
    await expect(refused).rejects.toThrow(/"Curency" \(did you mean currency\?\)/);
  });
});
