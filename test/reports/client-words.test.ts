/**
 * Issue 27, "the client sees client words", through the real command, read back with tools
 * that are not the writers': pdftotext for the PDF's text, qpdf for the JSON embedded in it,
 * openpyxl for the xlsx's number formats. The review's cases: a starter-tier run (no exit
 * scope: a 403 the analyst hears of), a CHF report whose summary card cut its range, the
 * concentration sentences whose "%" wrapped away from the number, the exit table's bare
 * "alt.", the dashboard's raw segment codes, the points column shown as a percentage, and a
 * three-week-old holding shown with a yearly rate.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, pdfText, readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/** Debian's python3 with python3-openpyxl (a pyenv python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';
const AS_OF = '2026-10-31';
/** Bought 21 days before AS_OF. */
const RECENT = '2026-10-10';

/** The analyst's words, which no client document may carry. */
const ANALYST_WORDS = /\b(403|Forbidden|scopes?|tiers?|retry|retries|backoff)\b/i;
/** A raw field name or enum code: snake_case ("market_validated", "real_estate"). */
const SNAKE = /\b[a-z]+_[a-z_]+\b/g;

let sb: TestSandbox;
let dir: string;
let lindqvist: string;
beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-client-words-');
  // The README's Lindqvist Trust (three properties that are 96 % of the value, so the concentration
  // sentences are long), and one watch bought three weeks before the valuation date.
  const lines = readFileSync(join(ROOT, 'examples/meridian-wealth-clients.csv'), 'utf8').split('\n');
  lindqvist = join(dir, 'lindqvist-trust.csv');
  writeFileSync(
    lindqvist,
    [lines[0], ...lines.filter((l) => l.startsWith('Lindqvist Trust,')), `Lindqvist Trust,watches,Omega,Speedmaster Moonwatch Professional,310.30.42.50.01.001,2024,excellent,yes,,1,6900,${RECENT},USD,`].join('\n') + '\n',
  );
}, 60_000);
afterAll(async () => {
  await sb?.close();
});

/** The report text without its reference ("rpt_2026-10-31_lindqvist-trust_0b04c099"), which is an identifier, not a word. */
const withoutReference = (text: string) => text.replace(/\brpt_[\w-]+/g, '');

/** The JSON embedded in a PDF, extracted by qpdf. */
function embeddedJson(pdf: string): Record<string, unknown> {
  const name = execFileSync('qpdf', ['--list-attachments', pdf], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(' ->')[0]!)
    .find((n) => n.endsWith('.json'));
  expect(name, 'the PDF embeds a JSON file').toBeDefined();
  return JSON.parse(execFileSync('qpdf', [`--show-attachment=${name}`, pdf], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}

/** Every string value in a JSON document. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

/** Every line of the layout text where a number and its "%" or "pts" are apart: "%" opening a line, or a number closing one before it. */
function brokenUnits(text: string): string[] {
  const lines = text.split('\n');
  return lines.filter((l, i) => /^\s*(%|pts\b)/.test(l) || (/\d\s*$/.test(l) && /^\s*(%|pts\b)/.test(lines[i + 1] ?? '')));
}

/** Number formats of the cells in one column of one sheet, read by openpyxl, by row label. */
function columnFormats(file: string, sheet: string, column: string): [unknown, unknown, string][] {
  const script = [
    'import json, sys, openpyxl',
    'ws = openpyxl.load_workbook(sys.argv[1])[sys.argv[2]]',
    'print(json.dumps([[ws.cell(r, 1).value, ws[f"{sys.argv[3]}{r}"].value, ws[f"{sys.argv[3]}{r}"].number_format] for r in range(1, ws.max_row + 1)], default=str))',
  ].join('\n');
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file, sheet, column], { encoding: 'utf8' }));
}

describe('client documents carry client words', () => {
  it('a starter-tier CHF report: no analyst words or codes in the PDF or its embedded JSON, the whole range on the card, every number beside its unit', async () => {
    const out = join(dir, 'starter');
    // Only the formats read below: the client's PDF and the analyst's JSON.
    const r = await runCli(['run', lindqvist, '--out', out, '--as-of', AS_OF, '--currency', 'CHF', '--fx-rates', join(ROOT, 'examples/fx-rates-ILLUSTRATIVE.csv'), '--formats', 'json,pdf'], serviceEnv(sb, 'demo-starter'));
    expect(r.code, r.stderr).toBe(0);
    // The analyst hears of the 403 (stderr and the analyst's JSON beside the PDF)...
    expect(r.stderr).toMatch(/Exit analysis: .*403 Forbidden for the exit scope/);
    const base = join(out, `lindqvist-trust-${AS_OF}`);
    const analystJson = readJson(`${base}.json`);
    expect(analystJson.analyst_notes.join('\n')).toMatch(/403 Forbidden for the exit scope/);

    // ...the client does not: not in the PDF's text...
    const text = withoutReference(pdfText(`${base}.pdf`));
    expect(text).toMatch(/Exit analysis is not part of this report\./);
    expect(text).not.toMatch(ANALYST_WORDS);
    expect(text.match(SNAKE) ?? []).toEqual([]);
    // ...nor in the JSON inside it, which is the client's version: the same figures, no analyst notes.
    const embedded = embeddedJson(`${base}.pdf`);
    expect(embedded.analyst_notes).toEqual([]);
    expect(embedded.summary).toEqual(analystJson.summary);
    const prose = strings(embedded).filter((s) => s.includes(' '));
    expect(prose.filter((s) => ANALYST_WORDS.test(s))).toEqual([]);
    expect(prose.flatMap((s) => s.match(SNAKE) ?? [])).toEqual([]);

    // The summary card shows the range whole (it was "CHF 54,671,7…").
    const s = analystJson.summary as { current_value_low: number; current_value_high: number };
    const chf = (n: number) => `CHF ${Math.round(n).toLocaleString('en-US')}`;
    expect(text).toContain(`Range ${chf(s.current_value_low)} – ${chf(s.current_value_high)}`);
    expect(text).not.toMatch(/CHF [\d,]+…/);

    // "98.8" stayed on one line, "% of the portfolio" on the next: now they travel together.
    expect(text).toMatch(/The ten largest positions are\s+\d+\.\d % of the portfolio/);
    expect(brokenUnits(text)).toEqual([]);
  }, 120_000);

  it('an enterprise report: the exit table names the next-best channel, points are formatted as points, and a three-week-old holding shows its return over 21 days, not a yearly rate', async () => {
    const out = join(dir, 'enterprise');
    const r = await runCli(['run', lindqvist, '--out', out, '--as-of', AS_OF, '--formats', 'json,pdf,xlsx'], serviceEnv(sb));
    expect(r.code, r.stderr).toBe(0);
    const base = join(out, `lindqvist-trust-${AS_OF}`);
    const text = withoutReference(pdfText(`${base}.pdf`));
    const json = readJson(`${base}.json`);

    // "alt. $20,416,460" said nothing of whose amount it was: the channel is named.
    expect(text).not.toMatch(/\balt\./);
    const exit = json.exit_analysis.data[0];
    // Read in content order (-raw): the cell's two lines sit beside other columns in the layout text.
    const raw = execFileSync('pdftotext', ['-raw', `${base}.pdf`, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(raw).toContain(`next best: ${exit.secondary_channel}, $${Math.round(exit.secondary_estimated_net).toLocaleString('en-US')} net`);
    expect(text).not.toMatch(ANALYST_WORDS);
    expect(text.match(SNAKE) ?? []).toEqual([]);
    expect(brokenUnits(text)).toEqual([]);

    // The lead over the benchmark is in percentage points: shown as points, not as a percentage.
    const perf = columnFormats(`${base}.xlsx`, 'Performance', 'C');
    expect(String(perf[0]![2] ?? '') + String(perf[0]![1])).toMatch(/\(points\)/);
    const numbers = perf.filter(([, v]) => typeof v === 'number');
    expect(numbers.length).toBeGreaterThan(0);
    for (const [label, , format] of numbers) {
      expect(format, String(label)).not.toMatch(/%/);
      expect(format, String(label)).toMatch(/pts/);
    }
    // The value is the points themselves (1.25 points is 1.25, not 0.0125).
    const firstPeriod = json.benchmarks.data.periods.find((p: { vs_benchmark_percent: number | null }) => p.vs_benchmark_percent !== null);
    expect(numbers.find(([label]) => label === firstPeriod.label)![1]).toBeCloseTo(firstPeriod.vs_benchmark_percent, 6);

    // Bought 21 days ago: its money-weighted figure is the return since purchase, not that return annualised.
    const watch = json.holdings.find((h: { purchase_date: string }) => h.purchase_date === RECENT);
    expect(watch.money_weighted_return_percent).toBeCloseTo(watch.return_percent, 6);
    const annualised = (Math.pow(1 + watch.return_percent / 100, 365 / 21) - 1) * 100;
    expect(Math.abs(watch.money_weighted_return_percent - annualised)).toBeGreaterThan(0.05);
    // In the PDF its IRR cell says over how long, and the table's note says it is not annualised.
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('Speedmaster Moonwatch') && l.includes(RECENT));
    expect(at, 'the watch has a row in the holdings table').toBeGreaterThan(0);
    expect(lines.slice(at, at + 3).join('\n')).toMatch(/\b21 days\b/);
    expect(text.replace(/\s+/g, ' ')).toMatch(/for a holding held under a year its return over the days held beneath it, not annualised/);
  }, 120_000);

  it('a portfolio held under a year: its money-weighted return is the period return, labelled with the days, and no annualised return is shown', async () => {
    // First purchase 183 days before as-of: longer than a month (which alone was never annualised), shorter than a year.
    const first = '2026-05-01';
    const file = join(dir, 'new-client.csv');
    writeFileSync(
      file,
      'segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency\n' +
        `watches,Rolex,Submariner Date,126610LN,2021,excellent,1,9900,${first},USD\n` +
        `watches,Omega,Speedmaster Moonwatch Professional,310.30.42.50.01.001,2024,excellent,1,6900,${RECENT},USD\n`,
    );
    const out = join(dir, 'new');
    const r = await runCli(['run', file, '--out', out, '--as-of', AS_OF, '--formats', 'json,pdf,xlsx'], serviceEnv(sb));
    expect(r.code, r.stderr).toBe(0);
    const base = join(out, `new-client-${AS_OF}`);
    const json = readJson(`${base}.json`);
    const [a, b] = json.holdings as { purchase_price: number; current_value: number }[];
    // The period rate p: both purchases grown to as-of at p per 183 days equal today's value.
    const p = json.summary.money_weighted_return_percent / 100;
    const grown = a!.purchase_price * (1 + p) + b!.purchase_price * Math.pow(1 + p, 21 / 183);
    expect(Math.abs(grown - (a!.current_value + b!.current_value))).toBeLessThan(0.01);
    expect(json.summary.annualised_return_percent).toBeNull();
    const text = pdfText(`${base}.pdf`).replace(/\s+/g, ' ');
    expect(text).toMatch(/RETURN OVER 183 DAYS/);
    expect(text).toMatch(/money-weighted, 183 days, not annualised/);
    expect(text).toMatch(/not annualised: held under a year/);
    expect(text).not.toMatch(/RETURN A YEAR \(IRR\)|Return a year \(IRR\)/);
    // Since the first purchase, named by its date: the since-inception period of the performance page (issue 34).
    expect(text).toMatch(/Return over 183 days: [+−]\d+\.\d %\. The money-weighted return over the 183 days since 1 May 2026, not annualised/);
    const summary = columnFormats(`${base}.xlsx`, 'Summary', 'B');
    expect(summary.map(([label]) => label)).toContain('Money-weighted return over 183 days since 2026-05-01 (not annualised)');
    expect(summary.find(([label]) => label === 'Annualised return')![1]).toBe('not annualised: held under a year');
  }, 120_000);

  it('a month-on-month change over 1,000 % stays whole in its narrow table cell ("+1690.9" no longer wraps before its "%")', async () => {
    const file = join(dir, 'growth.csv');
    writeFileSync(
      file,
      'segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency\n' +
        'watches,Rolex,Submariner Date,126610LN,2021,excellent,1,9900,2022-05-01,USD\n' +
        'watches,Omega,Speedmaster Moonwatch Professional,310.30.42.50.01.001,2024,excellent,1,6900,2023-10-10,USD\n',
    );
    const september = join(dir, 'growth-sep');
    expect((await runCli(['run', file, '--out', september, '--as-of', '2026-09-30', '--formats', 'json'], serviceEnv(sb))).code).toBe(0);
    // Last month's value of the Submariner a seventeenth of today's: this month's change is about +1,700 %.
    const previousFile = join(september, 'growth-2026-09-30.json');
    const previous = readJson(previousFile);
    previous.holdings[0].current_value = Math.round((previous.holdings[0].current_value / 17.9) * 100) / 100;
    writeFileSync(previousFile, JSON.stringify(previous, null, 2));
    const out = join(dir, 'growth-oct');
    const r = await runCli(['run', file, '--out', out, '--as-of', AS_OF, '--previous', september, '--formats', 'json,pdf'], serviceEnv(sb));
    expect(r.code, r.stderr).toBe(0);
    const month = readJson(join(out, `growth-${AS_OF}.json`)).holdings[0].month_on_month_percent as number;
    expect(month).toBeGreaterThan(1000);
    const text = pdfText(join(out, `growth-${AS_OF}.pdf`));
    const row = text.split('\n').find((l) => /^\s*2 Rolex Submariner/.test(l))!;
    expect(row).toContain(`+${month.toFixed(1)} %`);
    expect(brokenUnits(text)).toEqual([]);
  }, 120_000);

  it('the dashboard PDF names segments and signals in words, never by their codes', async () => {
    const out = join(dir, 'dashboard');
    const r = await runCli(['dashboard', '--out', out, '--as-of', AS_OF, '--formats', 'pdf'], serviceEnv(sb));
    expect(r.code, r.stderr).toBe(0);
    const text = withoutReference(pdfText(join(out, r.stdout.trim().split('\n').find((f) => f.endsWith('.pdf'))!.split('/').pop()!)));
    expect(text).toMatch(/Market dashboard/);
    expect(text.match(SNAKE) ?? []).toEqual([]);
    // The service's lower-case codes start with a capital in a table cell when written as words.
    expect(text).not.toMatch(/^\s*(opportunity|warning|info|critical)\s/m);
  }, 120_000);
});
