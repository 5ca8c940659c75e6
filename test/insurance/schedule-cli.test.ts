/**
 * `svc-report insurance-schedule` end to end (issue 37), against one sandbox whose request log
 * counts the calls: after a month-end of the same day into the same folder it makes no
 * valuation call at all and every item's figures are the month-end JSON's; without one it
 * values, with the same figures. One schedule per insurer (xlsx via openpyxl, PDF via
 * pdftotext), rounded as asked, `--insurer`, the manifest, and bad flags refused with exit 2.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, pdfText, readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

const HOLDINGS = resolve(ROOT, 'test/fixtures/insurance/holdings.csv');
const FX = resolve(ROOT, 'examples/fx-rates-ILLUSTRATIVE.csv');
const AS_OF = '2026-09-30';
const COMMON = ['--as-of', AS_OF, '--currency', 'USD', '--fx-rates', FX];
/** The month-end records no history here (the schedule never opens the database). */
const NO_DB = ['--db', 'off'];

let sb: TestSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sb = await testSandbox();
  env = serviceEnv(sb);
});
afterAll(async () => {
  await sb?.close();
});

const valuationCalls = (lines: { path: string }[]) => lines.filter((l) => /\/valuations(\/batch)?$/.test(l.path)).length;

interface Row {
  item: number;
  asset_id: string;
  insured: number | null;
  proposed: number;
  change: number;
  replacement: number;
}

/** The Schedule sheet's item rows, read with openpyxl. */
function scheduleRows(file: string): Row[] {
  const script =
    'import json, sys, openpyxl\nws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]\nrows = list(ws.iter_rows(values_only=True))[1:]\nprint(json.dumps([{"item": r[0], "asset_id": r[3], "insured": r[4], "proposed": r[5], "change": r[6], "replacement": r[12]} for r in rows if isinstance(r[0], int)]))';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as Row[];
}

interface JsonItem {
  asset_id: string;
  mid: number;
  insured_value: number | null;
  replacement_value: number;
  insurer: string | null;
}

describe('insurance-schedule after the same day\'s month-end', () => {
  let out: string;
  let monthEnd: { insurance: { items: JsonItem[] } };

  beforeAll(async () => {
    out = join(tempDir('schedule-run-'), 'out');
    const run = await runCli(['run', HOLDINGS, '--out', out, ...COMMON, ...NO_DB], env);
    expect(run.code, run.stderr).toBe(0);
    monthEnd = readJson(join(out, `ashcombe-collection-${AS_OF}.json`));
  }, 180_000);

  it('makes no valuation call; one schedule per insurer, every item\'s values the month-end JSON\'s, rounded up to 500', async () => {
    const before = valuationCalls(await sb.log());
    const r = await runCli(['insurance-schedule', HOLDINGS, '--out', out, ...COMMON], env);
    expect(r.code, r.stderr).toBe(0);
    expect(valuationCalls(await sb.log())).toBe(before);
    expect(r.stderr).toMatch(/Reusing the valuations of the month-end of 2026-09-30/);
    expect(r.stderr).toMatch(/no holding valued again/);
    const written = r.stdout.trim().split('\n').map((l) => l.replace(/^.*\//, ''));
    expect(written.sort()).toEqual(
      ['chubb', 'hiscox']
        .flatMap((i) => [`ashcombe-collection-insurance-by-${i}-${AS_OF}.pdf`, `ashcombe-collection-insurance-by-${i}-${AS_OF}.xlsx`])
        .concat([`ashcombe-collection-insurance-not-insured-${AS_OF}.pdf`, `ashcombe-collection-insurance-not-insured-${AS_OF}.xlsx`])
        .sort(),
    );
    for (const insurer of ['Hiscox', 'Chubb']) {
      const rows = scheduleRows(join(out, `ashcombe-collection-insurance-by-${insurer.toLowerCase()}-${AS_OF}.xlsx`));
      const expected = monthEnd.insurance.items.filter((i) => i.insurer === insurer);
      expect(rows.map((x) => x.asset_id).sort()).toEqual(expected.map((i) => i.asset_id).sort());
      for (const row of rows) {
        const item = expected.find((i) => i.asset_id === row.asset_id)!;
        expect(row.insured).toBe(item.insured_value);
        expect(row.replacement).toBe(item.replacement_value);
        // Rounded UP to the default step, never down, never a whole step too far.
        expect(row.proposed).toBe(Math.ceil(Math.round(item.replacement_value * 100) / 50000) * 500);
        expect(row.change).toBeCloseTo(row.proposed - item.insured_value!, 2);
      }
      const text = pdfText(join(out, `ashcombe-collection-insurance-by-${insurer.toLowerCase()}-${AS_OF}.pdf`));
      expect(text).toContain(`Insurance schedule: ${insurer}`);
      // Each line's source (the PDF's column may wrap it).
      expect(text.match(/Month-end valuation\s+(\S[^\n]*\s+)?\(sandbox\)/g)).toHaveLength(rows.length);
    }
    // The folder's manifest lists the schedules beside the month-end's reports.
    const manifest = readJson(join(out, 'manifest.json'));
    expect(manifest.files.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(written));
    expect(manifest.runs.map((x: { command: string }) => x.command)).toEqual(['run', 'insurance-schedule']);
  }, 180_000);

  it('an edited month-end report is not trusted: its holdings are valued again', async () => {
    const copy = join(tempDir('schedule-edited-'), 'out');
    execFileSync('cp', ['-r', out, copy]);
    const json = join(copy, `ashcombe-collection-${AS_OF}.json`);
    execFileSync('/usr/bin/python3', ['-c', 'import json,sys\nd=json.load(open(sys.argv[1]))\nd["holdings"][0]["value_high"]=1\njson.dump(d,open(sys.argv[1],"w"))', json]);
    const before = valuationCalls(await sb.log());
    const r = await runCli(['insurance-schedule', HOLDINGS, '--out', copy, '--insurer', 'Hiscox', ...COMMON], env);
    expect(r.code, r.stderr).toBe(0);
    expect(valuationCalls(await sb.log())).toBeGreaterThan(before);
    const rows = scheduleRows(join(copy, `ashcombe-collection-insurance-by-hiscox-${AS_OF}.xlsx`));
    for (const row of rows) expect(row.replacement).toBe(monthEnd.insurance.items.find((i) => i.asset_id === row.asset_id)!.replacement_value);
  }, 180_000);

  it('a FIFO or a link in place of the month-end report is never opened or followed: the schedule values again and ends', async () => {
    for (const swap of ['fifo', 'link'] as const) {
      const copy = join(tempDir(`schedule-${swap}-`), 'out');
      execFileSync('cp', ['-r', out, copy]);
      const json = join(copy, `ashcombe-collection-${AS_OF}.json`);
      const elsewhere = join(tempDir('schedule-elsewhere-'), 'report.json');
      execFileSync('mv', [json, elsewhere]);
      if (swap === 'fifo') execFileSync('mkfifo', [json]);
      else symlinkSync(elsewhere, json);
      const before = valuationCalls(await sb.log());
      const r = await runCli(['insurance-schedule', HOLDINGS, '--out', copy, '--insurer', 'Hiscox', ...COMMON], env);
      expect({ swap, code: r.code }, r.stderr).toEqual({ swap, code: 0 });
      expect(valuationCalls(await sb.log()), swap).toBeGreaterThan(before);
    }
  }, 240_000);

  it('without a month-end it values the holdings itself; --insurer keeps one schedule, --round 1000 and --replacement mid as asked', async () => {
    const alone = join(tempDir('schedule-alone-'), 'out');
    const before = valuationCalls(await sb.log());
    const r = await runCli(['insurance-schedule', HOLDINGS, '--out', alone, '--insurer', 'Hiscox', '--round', '1000', '--replacement', 'mid', ...COMMON], env);
    expect(r.code, r.stderr).toBe(0);
    expect(valuationCalls(await sb.log())).toBeGreaterThan(before);
    expect(r.stderr).toMatch(/No month-end valuations reused/);
    expect(readdirSync(alone).filter((f) => f !== 'manifest.json').sort()).toEqual([`ashcombe-collection-insurance-by-hiscox-${AS_OF}.pdf`, `ashcombe-collection-insurance-by-hiscox-${AS_OF}.xlsx`]);
    const rows = scheduleRows(join(alone, `ashcombe-collection-insurance-by-hiscox-${AS_OF}.xlsx`));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      // The mid estimate is the replacement value: the month-end's JSON says each item's mid (the same sandbox day).
      const item = monthEnd.insurance.items.find((i) => i.asset_id === row.asset_id)!;
      expect(row.replacement).toBe(item.mid);
      expect(row.proposed % 1000).toBe(0);
      expect(row.proposed).toBeGreaterThanOrEqual(item.mid);
      expect(row.proposed - item.mid).toBeLessThan(1000);
    }
    const text = pdfText(join(alone, `ashcombe-collection-insurance-by-hiscox-${AS_OF}.pdf`));
    expect(text).toMatch(/Valuation \(sandbox\)/);
    expect(text).toMatch(/the mid estimate/);
  }, 180_000);
});

describe('insurance-schedule after a month-end in another currency', () => {
  it('reuses its CHF valuations (no call), every item\'s values the month-end JSON\'s to the cent', async () => {
    const out = join(tempDir('schedule-chf-'), 'out');
    const inChf = ['--as-of', AS_OF, '--currency', 'CHF', '--fx-rates', FX];
    const run = await runCli(['run', HOLDINGS, '--out', out, ...inChf, ...NO_DB], env);
    expect(run.code, run.stderr).toBe(0);
    const monthEnd: { currency: string; insurance: { items: JsonItem[] } } = readJson(join(out, `ashcombe-collection-${AS_OF}.json`));
    expect(monthEnd.currency).toBe('CHF');
    const before = valuationCalls(await sb.log());
    const r = await runCli(['insurance-schedule', HOLDINGS, '--out', out, '--insurer', 'Chubb', ...inChf], env);
    expect(r.code, r.stderr).toBe(0);
    expect(valuationCalls(await sb.log())).toBe(before);
    const rows = scheduleRows(join(out, `ashcombe-collection-insurance-by-chubb-${AS_OF}.xlsx`));
    const expected = monthEnd.insurance.items.filter((i) => i.insurer === 'Chubb');
    expect(rows.map((x) => x.asset_id).sort()).toEqual(expected.map((i) => i.asset_id).sort());
    for (const row of rows) {
      const item = expected.find((i) => i.asset_id === row.asset_id)!;
      // Taken back to the service's USD answer and converted again: equal to the cent.
      expect(row.replacement).toBeCloseTo(item.replacement_value, 2);
      expect(row.insured).toBeCloseTo(item.insured_value!, 2);
    }
  }, 240_000);
});

describe('bad usage', () => {
  it('exits 2 with a message naming the flag or name, writing nothing', async () => {
    const dir = tempDir('schedule-bad-');
    const cases: [string[], RegExp][] = [
      [['--round', '0'], /--round must be a positive amount/],
      [['--round', 'lots'], /--round must be a positive amount/],
      [['--round', '-500'], /--round must be a positive amount/],
      [['--replacement', 'low'], /--replacement.*(mid|high)/],
      // The month-end's tolerance, so the schedule's statuses are the month-end's.
      [['--insurance-tolerance', '150'], /--insurance-tolerance must be a percent of value from 0 to 100/],
      [['--portfolio', 'Nobody'], /--portfolio "Nobody" is not in the input; the portfolios are "Ashcombe Collection"/],
      [['--insurer', 'Allianz'], /insured with "Allianz"/],
    ];
    for (const [flags, message] of cases) {
      const out = join(dir, flags.join('_').replace(/[^a-z0-9]/gi, ''));
      const r = await runCli(['insurance-schedule', HOLDINGS, '--out', out, ...COMMON, ...flags], env);
      expect({ flags, code: r.code }).toEqual({ flags, code: 2 });
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(dir)).not.toContain(out.replace(/^.*\//, ''));
    }
    const missing = await runCli(['insurance-schedule', HOLDINGS, ...COMMON], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--out/);
  }, 240_000);
});
