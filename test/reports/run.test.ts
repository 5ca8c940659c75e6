import { writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cents,
  csvFile,
  pdfText,
  readCsv,
  readJson,
  readXlsx,
  reportFiles,
  runCli,
  serviceEnv,
  sheetValues,
  summaryValue,
  tempDir,
  testSandbox,
  watchRows,
  type TestSandbox,
} from './helpers';

let sb: TestSandbox;
let dir: string;

beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir();
});
afterAll(async () => {
  await sb?.close();
});

const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const batchCalls = (log: Awaited<ReturnType<TestSandbox['log']>>) => log.filter((l) => l.method === 'POST' && l.path.endsWith('/valuations/batch'));

describe('svc-report run against the sandbox', () => {
  it('writes four formats whose totals agree with each other and with the sum of the holdings; a bad row lands in the errors; formula text is neutralised', async () => {
    const injection = 'watches,"=HYPERLINK(""http://evil.example/x"";""click"")",+Submariner,126610LN,2020,good,1,12000,2021-05-05,USD,@SUM(A1)';
    const bad = 'watches,Rolex,Submariner Date,126610LN,2020,good,1,not-a-number,2021-05-05,USD,bad price';
    const rows = [...watchRows(10), bad, injection];
    const file = join(dir, 'agreement.csv');
    writeFileSync(file, csvFile(rows));
    const out = join(dir, 'agreement-out');
    const before = batchCalls(await sb.log()).length;

    const config = join(dir, 'firm.config.json');
    writeFileSync(config, JSON.stringify({ prepared_by: 'Meridian Wealth Partners' }));
    const r = await runCli(['run', file, '--out', out, '--as-of', '2026-10-31', '--config', config], serviceEnv(sb));
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack traces
    expect(r.code).toBe(3);
    // stdout lists exactly the written files
    const listed = r.stdout.trim().split('\n');
    expect(listed).toHaveLength(4);
    for (const f of listed) expect(existsSync(f)).toBe(true);

    const files = reportFiles(out, 'agreement');
    const json = readJson(files.json);
    const holdings = json.holdings as { row: number; current_value: number; description: string }[];
    expect(holdings).toHaveLength(11);
    const sumJson = holdings.reduce((s, h) => s + h.current_value, 0);
    expect(Math.abs(cents(sumJson) - cents(json.summary.current_value))).toBeLessThanOrEqual(holdings.length);

    const csv = readCsv(files.csv);
    expect(csv).toHaveLength(11);
    const sumCsv = csv.reduce((s, h) => s + Number(h.current_value), 0);
    expect(cents(sumCsv)).toBe(cents(sumJson));

    const wb = await readXlsx(files.xlsx);
    expect(cents(Number(summaryValue(wb, 'Current value (mid estimate)')))).toBe(cents(json.summary.current_value));
    const sheet = sheetValues(wb, 'Holdings');
    const midColumn = sheet[0]!.indexOf('Value mid');
    const sumXlsx = sheet.slice(1).reduce((s, row) => s + (typeof row[midColumn] === 'number' ? (row[midColumn] as number) : 0), 0);
    expect(cents(sumXlsx)).toBe(cents(sumJson));

    const pdf = pdfText(files.pdf);
    expect(pdf).toContain(money(json.summary.current_value));
    expect(pdf).toMatch(/SANDBOX/);

    // The bad row: its spreadsheet row (header is row 1), field and reason, in JSON, XLSX and PDF.
    expect(json.errors).toEqual([expect.objectContaining({ row: 12, field: 'purchase_price', message: expect.stringMatching(/number/) })]);
    const errorsSheet = sheetValues(wb, 'Errors');
    expect(errorsSheet.some((row) => row.includes(12) && row.includes('purchase_price'))).toBe(true);
    expect(pdf).toMatch(/purchase_price/);
    expect(holdings.map((h) => h.row)).not.toContain(12);

    // Formula injection: the description starts with "=" in the data, never as a live formula.
    const injected = csv.find((h) => h.row === '13')!;
    expect(injected.description!.startsWith("'=")).toBe(true);
    const xlsxCell = sheet.find((row) => row[0] === 13)![sheet[0]!.indexOf('Description')];
    expect(String(xlsxCell).startsWith('=')).toBe(false);
    expect(typeof xlsxCell).toBe('string');

    // 11 valid holdings: one batch call.
    expect(batchCalls(await sb.log()).length - before).toBe(1);
  });

  it('values a portfolio of 60 holdings in exactly two batch calls and exits 0', async () => {
    const file = join(dir, 'sixty.csv');
    writeFileSync(file, csvFile(watchRows(60)));
    const before = batchCalls(await sb.log()).length;
    const r = await runCli(['run', file, '--out', join(dir, 'sixty-out'), '--formats', 'json', '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.code).toBe(0);
    const calls = batchCalls(await sb.log()).slice(before);
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.items).sort()).toEqual([10, 50]);
    const json = readJson(r.stdout.trim());
    expect(json.summary.asset_count).toBe(60);
    expect(json.errors).toEqual([]);
  });

  it('adds month-on-month change from the previous run', async () => {
    const file = join(dir, 'monthly.csv');
    writeFileSync(file, csvFile(watchRows(6)));
    const sept = join(dir, 'monthly-2026-09');
    const oct = join(dir, 'monthly-2026-10');
    expect((await runCli(['run', file, '--out', sept, '--formats', 'json', '--as-of', '2026-09-30'], serviceEnv(sb))).code).toBe(0);
    const r = await runCli(['run', file, '--out', oct, '--formats', 'json,xlsx', '--as-of', '2026-10-31', '--previous', sept], serviceEnv(sb));
    expect(r.code).toBe(0);
    const prev = readJson(join(sept, 'monthly-2026-09-30.json'));
    const now = readJson(join(oct, 'monthly-2026-10-31.json'));
    const mom = now.summary.month_on_month;
    expect(mom.previous_as_of).toBe('2026-09-30');
    expect(mom.previous_value).toBe(prev.summary.current_value);
    expect(cents(mom.change)).toBe(cents(now.summary.current_value - prev.summary.current_value));
    expect(now.summary.current_value).not.toBe(prev.summary.current_value);
    const h = now.holdings[0];
    expect(cents(h.month_on_month_change)).toBe(cents(h.current_value - prev.holdings[0].current_value));
  });

  it('omits the sections a starter tier may not call (403) with a note, and still succeeds', async () => {
    const file = join(dir, 'starter.csv');
    writeFileSync(file, csvFile(watchRows(3)));
    const r = await runCli(['run', file, '--out', join(dir, 'starter-out'), '--formats', 'json', '--tier', 'starter', '--minute-ms', '6000', '--as-of', '2026-10-31'], serviceEnv(sb, 'demo-starter'));
    expect(r.code).toBe(0);
    const json = readJson(r.stdout.trim());
    for (const key of ['projections', 'exit_analysis', 'benchmarks']) expect(json[key].included).toBe(false);
    // The client's report says the section is not part of it; the 403 and the scope are the analyst's (stderr and analyst_notes).
    expect(JSON.stringify(json.analyst_notes)).toMatch(/403 Forbidden for the projections scope/);
    expect(r.stderr).toMatch(/403 Forbidden for the exit scope/);
    expect(json.summary.asset_count).toBe(3);
  });

  it('marks the reports as sandbox data when the service says it is one (x-sandbox: true), even when not configured as a sandbox', async () => {
    const file = join(dir, 'unmarked.csv');
    writeFileSync(file, csvFile(watchRows(2)));
    const { SVC_SANDBOX: _, ...notConfigured } = serviceEnv(sb);
    const r = await runCli(['run', file, '--out', join(dir, 'unmarked-out'), '--formats', 'json', '--as-of', '2026-10-31'], notConfigured);
    expect(r.code).toBe(0);
    expect(readJson(r.stdout.trim()).sandbox).toBe(true);
  });

  it('writes one report set per portfolio and a consolidated one for several', async () => {
    const a = join(dir, 'alpha.csv');
    const b = join(dir, 'beta.json');
    writeFileSync(a, csvFile(watchRows(4)));
    writeFileSync(b, JSON.stringify({ holdings: [{ segment: 'Fine Wines', producer: 'Château Margaux', model: 'Margaux', vintage: 2015, quantity: 2, 'Purchase Price': 15000, purchase_date: '2019-06-01' }] }));
    const out = join(dir, 'multi-out');
    const r = await runCli(['run', a, b, '--out', out, '--formats', 'json', '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.code).toBe(0);
    expect(readdirSync(out).filter((f) => f !== 'manifest.json').sort()).toEqual(['alpha-2026-10-31.json', 'beta-2026-10-31.json', 'consolidated-2026-10-31.json']);
    const [alpha, beta, all] = ['alpha', 'beta', 'consolidated'].map((n) => readJson(join(out, `${n}-2026-10-31.json`)));
    expect(all.summary.asset_count).toBe(5);
    expect(cents(all.summary.current_value)).toBe(cents(alpha.summary.current_value + beta.summary.current_value));
    expect(beta.holdings[0].segment).toBe('wine');
  });
});
