/**
 * Issue 27 through the real command, read back with independent readers (pdftotext, openpyxl):
 * identical holdings are one position before the five largest are taken, and validation is
 * disclosed by value on the summary page. The sandbox's deterministic market leaves the three
 * properties below not market validated (about 96 % of the value) and values the rest validated.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';
import { formatPercent } from '../../reports/writers/text-format';

/** Lindqvist Trust's largest lines from examples/meridian-wealth-clients.csv: three identical Banksys (each below the fifth-largest line alone). */
const LINDQVIST = [
  'Portfolio,Segment,Brand,Model,Reference,Year,Condition,Box & Papers,Size,Quantity,Purchase Price,Purchase Date,Currency,Notes',
  'Lindqvist Trust,art,Banksy,Girl with Balloon,,2004,excellent,,,1,243000,2023-04-02,USD,Insured separately',
  'Lindqvist Trust,real_estate,One Hyde Park,Apartment C.6.1 London SW1X,,,,,,1,9788000,2020-01-18,USD,',
  'Lindqvist Trust,watches,Patek Philippe,Aquanaut,5167A-001,2018,excellent,no,,1,55750,2023-02-04,USD,',
  'Lindqvist Trust,real_estate,Aman Residences Tokyo,Residence 3805,,,,,,1,5477000,2016-08-20,USD,Dealer purchase',
  'Lindqvist Trust,art,Banksy,Girl with Balloon,,2004,excellent,,,1,228000,2021-06-04,USD,Serviced 2024',
  'Lindqvist Trust,real_estate,Chelsea Barracks,Garrison Square Townhouse 4,,,,,,1,10889000,2019-08-16,USD,',
  'Lindqvist Trust,wine,Domaine de la Romanée-Conti,La Tâche Grand Cru,,2014,excellent,,,1,29850,2015-04-11,USD,Bought at auction',
  'Lindqvist Trust,wine,Domaine de la Romanée-Conti,La Tâche Grand Cru,,2010,good,,,1,48850,2020-02-07,USD,',
  'Lindqvist Trust,art,Yayoi Kusama,Pumpkin (Yellow),,1993,very_good,,,1,58050,2018-04-20,USD,Bought at auction',
  'Lindqvist Trust,art,Banksy,Girl with Balloon,,2004,excellent,,,1,248000,2025-11-16,USD,',
];

interface Row {
  row: number;
  asset_id: string;
  current_value: number;
  holding_count: number;
  market_validated: boolean;
  net_realisable_value: number | null;
}
interface Report {
  summary: { market_validated_percent: number; market_validated_count: number; asset_count: number; validation_warning: string | null };
  holdings: Row[];
  projections: { included: boolean; data: Row[] };
  exit_analysis: { included: boolean; data: Row[] };
}

/** Debian's python3 with python3-openpyxl (a pyenv python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';

function openpyxlSheet(file: string, sheet: string): unknown[][] {
  const script = ['import json, sys, openpyxl', 'wb = openpyxl.load_workbook(sys.argv[1], read_only=True)', 'print(json.dumps([list(r) for r in wb[sys.argv[2]].iter_rows(values_only=True)], default=str))'].join('\n');
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file, sheet], { encoding: 'utf8' }));
}

/** The PDF's pages as pdftotext reads them (reading order), white space collapsed so sentences read whole. */
function pdfPages(file: string): string[] {
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })
    .split('\f')
    .map((p) => p.replace(/\s+/g, ' '));
}

let sb: TestSandbox;
let dir: string;
let out: string;
let report: Report;
let pages: string[];
beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-positions-');
  const file = join(dir, 'lindqvist.csv');
  writeFileSync(file, LINDQVIST.join('\n') + '\n');
  out = join(dir, 'out');
  const r = await runCli(['run', file, '--out', out, '--as-of', '2026-10-31'], serviceEnv(sb));
  expect(r.code, r.stderr).toBe(0);
  report = JSON.parse(readFileSync(join(out, 'lindqvist-trust-2026-10-31.json'), 'utf8')) as Report;
  pages = pdfPages(join(out, 'lindqvist-trust-2026-10-31.pdf'));
}, 120_000);
afterAll(async () => {
  await sb?.close();
});

const banksy = (r: { asset_id: string }) => /BANKSY/.test(r.asset_id);

describe('largest holdings by position', () => {
  it('groups the three identical Banksys before taking the five largest: five rows, the Banksy row with its count and their total value', () => {
    const lines = report.holdings.filter(banksy);
    expect(lines).toHaveLength(3);
    const total = lines.reduce((s, h) => s + h.current_value, 0);
    for (const section of [report.projections, report.exit_analysis]) {
      expect(section.included).toBe(true);
      expect(section.data).toHaveLength(5);
      expect(section.data.filter(banksy).map((r) => [r.holding_count, r.current_value])).toEqual([[3, expect.closeTo(total, 1)]]);
    }
  });

  it("fills every line's net realisable value, all three Banksys included", () => {
    const analysed = new Set(report.exit_analysis.data.map((e) => e.asset_id));
    const lines = report.holdings.filter((h) => analysed.has(h.asset_id));
    expect(lines).toHaveLength(7);
    for (const h of lines) expect(h.net_realisable_value, `row ${h.row}`).not.toBeNull();
    expect(report.holdings.filter((h) => h.net_realisable_value !== null)).toHaveLength(7);
  });

  it('shows the count in the PDF and the xlsx, and the text counts the rows shown', () => {
    const text = pages.join(' ');
    expect(text.match(/3 identical holdings/g)).toHaveLength(2); // projections and exit analysis
    expect(text).toMatch(/What the 5 largest positions \(7 holdings, identical ones counted as one position\) would bring/);
    const sheet = openpyxlSheet(join(out, 'lindqvist-trust-2026-10-31.xlsx'), 'Exit analysis');
    const holdingsColumn = sheet[0]!.indexOf('Holdings');
    expect(holdingsColumn).toBeGreaterThan(0);
    expect(sheet.slice(1).map((r) => r[holdingsColumn])).toEqual([1, 1, 1, 3, 1]);
  });
});

describe('validation by value', () => {
  const summaryPage = () => pages.find((p) => /Summary/.test(p) && /Allocation by segment/i.test(p))!;

  it('states the share of value market validated on the summary page, and names the holdings that carry the rest', () => {
    const s = report.summary;
    expect([s.asset_count, s.market_validated_count]).toEqual([10, 7]);
    // 2.7 % in this sandbox: under the default 80, above the 2 of the run below.
    expect(s.market_validated_percent).toBeGreaterThan(2);
    expect(s.market_validated_percent).toBeLessThan(5);
    const page = summaryPage();
    expect(page).toContain(`Market validated: ${formatPercent(s.market_validated_percent)} of the value (${s.market_validated_count} of ${s.asset_count} valuations).`);
    expect(page).toMatch(new RegExp(`Only ${formatPercent(s.market_validated_percent)} of the value in this report is market validated\\. The rest is in Chelsea Barracks Garrison Square Townhouse 4 \\([\\d.]+ %\\); One Hyde Park [^;]+; Aman Residences Tokyo Residence 3805 \\([\\d.]+ %\\)\\.`));
    expect(s.validation_warning).not.toBeNull();
  });

  it('counts by value in the disclaimer, with no field name anywhere in the PDF', () => {
    const text = pages.join(' ');
    expect(text).toContain(`${formatPercent(100 - report.summary.market_validated_percent)} of the value (3 of ${report.summary.asset_count} valuations) is not market validated`);
    expect(text).not.toMatch(/market_validated|validation_warning|holding_count/);
  });

  it('says nothing more when the share is above --validated-warning', async () => {
    const file = join(dir, 'lindqvist-low.csv');
    writeFileSync(file, LINDQVIST.join('\n') + '\n');
    const low = join(dir, 'out-low');
    const r = await runCli(['run', file, '--out', low, '--as-of', '2026-10-31', '--formats', 'json,pdf', '--validated-warning', '2'], serviceEnv(sb));
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(low, 'lindqvist-trust-2026-10-31.json'), 'utf8')) as Report;
    expect(json.summary.validation_warning).toBeNull();
    const text = pdfPages(join(low, 'lindqvist-trust-2026-10-31.pdf')).join(' ');
    expect(text).toContain('Market validated:');
    expect(text).not.toMatch(/Only [\d.]+ % of the value in this report is market validated/);
  });

  it('refuses a --validated-warning that is not a percent', async () => {
    const r = await runCli(['run', join(dir, 'lindqvist.csv'), '--out', join(dir, 'out-bad'), '--validated-warning', '180'], serviceEnv(sb));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--validated-warning must be a percent of value from 0 to 100/);
  });
});
