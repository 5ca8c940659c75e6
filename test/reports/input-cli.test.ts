import { existsSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../../src/holdings/limits';
import { readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/**
 * Holdings input through the real command against the sandbox: amounts read exactly or refused,
 * files refused whole (missing or duplicate columns, no readable row, past a limit) before any
 * call is spent.
 */

/** Each test runs the command a few times, each start-up a few seconds on a loaded 2-core machine. */
const LOADED_MACHINE_MS = 240_000;

let sb: TestSandbox;
let dir: string;

beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-input-cli-');
});
afterAll(async () => {
  await sb?.close();
});

const HEAD = 'segment,brand,model,reference,year,purchase_price,purchase_date,currency';
const GOOD = 'watches,Rolex,Submariner Date,126610LN,2021,13200,2022-03-14,USD';

/** Requests the sandbox has logged so far: a refused file must not add any. */
const calls = async () => (await sb.log()).length;

async function runJson(name: string, lines: string[], extra: string[] = []) {
  const file = join(dir, `${name}.csv`);
  writeFileSync(file, [HEAD, ...lines].join('\n') + '\n');
  const out = join(dir, `${name}-out`);
  const r = await runCli(['run', file, '--out', out, '--formats', 'json', '--as-of', '2026-10-31', ...extra], serviceEnv(sb));
  return { r, out, json: r.stdout.trim() ? readJson(r.stdout.trim().split('\n')[0]!) : undefined };
}

describe('amounts are read exactly or refused', { timeout: LOADED_MACHINE_MS }, () => {
  it('refuses "€ 98.000" and "12.500" with both readings instead of reading 98 and 12.5; the unambiguous forms are read', async () => {
    const { r, json } = await runJson('ambiguous', [
      GOOD,
      'watches,Patek Philippe,Nautilus,5711/1A-010,2019,"€ 98.000",2020-06-01,',
      'watches,Rolex,Cosmograph Daytona,116500LN,2020,12.500,2021-01-05,USD',
      'watches,Omega,Speedmaster Moonwatch Professional,310.30.42.50.01.001,2021,"$12,500.00",2021-02-01,USD',
      'watches,Tudor,Black Bay Fifty-Eight,M79030N-0001,2021,"£3,200",2021-02-01,',
      'watches,Cartier,Santos de Cartier Large,WSSA0018,2021,12 500,2021-02-01,USD',
    ]);
    expect(r.code).toBe(3);
    const prices = json.holdings.map((h: { purchase_price: number }) => h.purchase_price);
    expect(prices).not.toContain(98);
    expect(prices).not.toContain(12.5);
    expect(prices).toEqual(expect.arrayContaining([13200, 12500, 3200, 12500]));
    const errors = json.errors as { row: number; field: string; message: string }[];
    expect(errors.find((e) => e.row === 3)).toMatchObject({ field: 'purchase_price', message: expect.stringMatching(/98000 if "\." separates thousands, or 98 if "\." is the decimal mark.*--decimal-comma/) });
    expect(errors.find((e) => e.row === 4)).toMatchObject({ field: 'purchase_price', message: expect.stringMatching(/12500 if "\." separates thousands, or 12\.5 if "\." is the decimal mark/) });
  });

  it('reads them by the declared convention (--decimal-comma), and by the one the rest of the column shows', async () => {
    const declared = await runJson('declared', [GOOD, 'watches,Patek Philippe,Nautilus,5711/1A-010,2019,"€ 98.000",2020-06-01,', 'watches,Rolex,Day-Date,228238,2020,"12.500,00 €",2021-01-05,'], ['--decimal-comma']);
    expect(declared.r.code).toBe(0);
    expect(declared.json.holdings.map((h: { purchase_price: number }) => h.purchase_price)).toEqual([13200, 98000, 12500]);

    // "12.500,00 €" can only be a decimal comma; nothing in the column says otherwise, so "98.000" is 98000.
    const detected = await runJson('detected', ['watches,Patek Philippe,Nautilus,5711/1A-010,2019,"€ 98.000",2020-06-01,', 'watches,Rolex,Day-Date,228238,2020,"12.500,00 €",2021-01-05,']);
    expect(detected.r.code).toBe(0);
    expect(detected.json.holdings.map((h: { purchase_price: number }) => h.purchase_price)).toEqual([98000, 12500]);

    // A column that shows both conventions settles nothing: the ambiguous amount is still refused.
    const mixed = await runJson('mixed', [GOOD, 'watches,Rolex,Day-Date,228238,2020,"12.500,00",2021-01-05,', 'watches,Rolex,GMT-Master II,126710BLRO,2020,"14,500.00",2021-01-05,', 'watches,Rolex,Explorer,124270,2021,"7.250",2021-01-05,']);
    expect(mixed.r.code).toBe(3);
    expect(mixed.json.errors.map((e: { row: number }) => e.row)).toEqual([5]);
  });

  it('suggests YYYY-MM-DD for a day-first date, in a row and for --as-of', async () => {
    const { json } = await runJson('dates', [GOOD, 'watches,Rolex,Explorer,124270,2021,7000,31/12/2023,USD']);
    expect(json.errors[0]).toMatchObject({ row: 3, field: 'purchase_date', message: expect.stringContaining('write 2023-12-31') });
    const asOf = await runCli(['run', join(dir, 'dates.csv'), '--out', join(dir, 'dates-x'), '--as-of', '31/12/2023'], serviceEnv(sb));
    expect(asOf.code).toBe(2);
    expect(asOf.stderr).toMatch(/--as-of must be a date .*write 2023-12-31/);
  });
});

describe('a file that cannot make a report is refused before any call', { timeout: LOADED_MACHINE_MS }, () => {
  it('a misspelt required header: exit 2 naming the column and the closest header, no report files', async () => {
    const file = join(dir, 'misspelt.csv');
    writeFileSync(file, 'Segment,Brand,Model,Purchse Price,Purchase Date\nwatches,Rolex,Daytona,30000,2020-01-01\n');
    const out = join(dir, 'misspelt-out');
    const before = await calls();
    const r = await runCli(['run', file, '--out', out], serviceEnv(sb));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no purchase_price column (did you mean "Purchse Price" → purchase_price?)');
    expect(r.stdout).toBe('');
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    expect(await calls()).toBe(before);
  });

  it('a file where no row could be read: exit 2 with the first problems, no report files', async () => {
    const file = join(dir, 'all-bad.csv');
    writeFileSync(file, `${HEAD}\nwatches,Rolex,Daytona,,2020,lots,2020-01-01,USD\nspaceships,Tesla,Roadster,,2018,100,2019-01-01,USD\n`);
    const out = join(dir, 'all-bad-out');
    const before = await calls();
    const r = await runCli(['run', file, '--out', out], serviceEnv(sb));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no row of .*all-bad\.csv could be read, so no report is written for it: row 2, purchase_price: .*row 3, segment/);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    expect(await calls()).toBe(before);
  });

  it('one unreadable portfolio beside good ones: named on stderr, the others written, exit 3', async () => {
    const bad = join(dir, 'bad-client.csv');
    writeFileSync(bad, `${HEAD}\nwatches,Rolex,Daytona,,2020,lots,2020-01-01,USD\n`);
    const good = join(dir, 'good-client.csv');
    writeFileSync(good, `${HEAD}\nwatches,Rolex,Daytona,116500LN,2020,30000,2020-01-01,USD\n`);
    // And a portfolio column leaving one client with only bad rows in a file that has good ones.
    const mixed = join(dir, 'mixed.csv');
    writeFileSync(mixed, `portfolio,${HEAD}\nAlvarez,watches,Omega,Speedmaster,310.30,2019,7000,2021-01-01,USD\nBianchi,spaceships,Tesla,Roadster,,2018,100,2019-01-01,USD\n`);
    const out = join(dir, 'some-bad-out');
    const r = await runCli(['run', bad, good, mixed, '--out', out, '--formats', 'json', '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/Not written: no row of .*bad-client\.csv could be read, so no report is written for it: row 2, purchase_price: .*The other portfolios' reports are\./);
    expect(r.stderr).toMatch(/Not written: no row of portfolio "Bianchi" in .*mixed\.csv could be read, so no report is written for it: row 3, segment/);
    const written = r.stdout.trim().split('\n').map((f) => f.replace(/^.*\//, '')).sort();
    expect(written).toEqual(['alvarez-2026-10-31.json', 'consolidated-2026-10-31.json', 'good-client-2026-10-31.json']);
  });

  it('two headers for one column (brand,brand): exit 2 naming both', async () => {
    const file = join(dir, 'duplicate.csv');
    writeFileSync(file, 'segment,brand,brand,model,purchase_price,purchase_date\nwatches,Rolex,Omega,Daytona,30000,2020-01-01\n');
    const r = await runCli(['run', file, '--out', join(dir, 'duplicate-out')], serviceEnv(sb));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('columns B ("brand") and C ("brand") both mean brand');
  });
});

describe('input limits, checked before the file is read whole', { timeout: LOADED_MACHINE_MS }, () => {
  it('an xlsx that unpacks past the limit is refused from its zip directory: exit 2 naming the limit, no call', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Holdings').addRows([
      ['segment', 'brand', 'model', 'purchase_price', 'purchase_date'],
      ['watches', 'Rolex', 'Daytona', 30000, '2020-01-01'],
    ]);
    const zip = await JSZip.loadAsync(Buffer.from(await wb.xlsx.writeBuffer()));
    // A part of zeros: a few kilobytes packed, past the limit unpacked.
    zip.file('xl/media/padding.bin', Buffer.alloc(INPUT_LIMITS.xlsxUnpackedBytes + 1024 * 1024));
    const file = join(dir, 'bomb.xlsx');
    writeFileSync(file, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    const before = await calls();
    const r = await runCli(['run', file, '--out', join(dir, 'bomb-out')], serviceEnv(sb));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bomb\.xlsx unpacks to more than 64 MB, over the limit of 64 MB unpacked for one Excel workbook/);
    expect(await calls()).toBe(before);
  });

  it('a file past the byte limit is refused by its size, and a csv past the row limit by its count', async () => {
    const big = join(dir, 'big.csv');
    writeFileSync(big, `${HEAD}\n`);
    truncateSync(big, INPUT_LIMITS.fileBytes + 1); // sparse: nothing to write, nothing read
    const bytes = await runCli(['run', big, '--out', join(dir, 'big-out')], serviceEnv(sb));
    expect(bytes.code).toBe(2);
    expect(bytes.stderr).toMatch(/big\.csv is larger than 64 MB \(64 MB\), the limit for one holdings file/);

    const many = join(dir, 'many.csv');
    writeFileSync(many, `${HEAD}\n${`${GOOD}\n`.repeat(INPUT_LIMITS.rows + 1)}`);
    const before = await calls();
    const rows = await runCli(['run', many, '--out', join(dir, 'many-out')], serviceEnv(sb));
    expect(rows.code).toBe(2);
    expect(rows.stderr).toMatch(/many\.csv has more than 200,000 rows, the limit for one holdings file/);
    expect(await calls()).toBe(before);
  });
});
