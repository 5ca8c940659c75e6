import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, monthEndHoldings, monthEnds, openDatabase, type HoldingValuation } from '../../src/db';
import { pdfText, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/**
 * Issue 34, "one performance engine", through the command: three month-ends of two portfolios
 * run one after another into an embedded database, WITHOUT --previous. The third month's reports
 * take month-on-month, every holding's month column and review's movers from the month-ends the
 * database recorded (read back here with the database's own queries); every report's summary
 * money- and time-weighted returns are its since-inception ones, in the JSON, the PDF (pdftotext)
 * and the xlsx (openpyxl); the consolidated report's money figures are the sums of its
 * portfolios'; and review of the first month says its movers were not checked.
 */
const exec = promisify(execFile);
/** Debian's python3 with python3-openpyxl. */
const PYTHON = '/usr/bin/python3';
const MONTHS = ['2025-01-31', '2025-02-28', '2025-03-31'] as const;
const PORTFOLIOS = ['Ashford', 'Brennan'] as const;
const WATCH = 'watches,Rolex,Datejust 41,126334,2019';
const BAG = 'bags,Hermès,Constance 24 Epsom,CONSTANCE24,2021';
const ART = 'art,Yayoi Kusama,Pumpkin (Yellow),,1998';
const CARD = 'cards,Pokémon,Charizard Base Set Holo Unlimited PSA 8,BS4-UNL-PSA8,1999';
const NONE = ',,,,';
const LEDGER = [
  'date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,notes',
  `2025-01-10,buy,Ashford,${WATCH},1,11800,USD,`,
  `2025-02-12,buy,Ashford,${BAG},1,9800,USD,`,
  `2025-03-05,fee,Ashford,${NONE},,150,USD,storage`,
  `2025-01-15,buy,Brennan,${ART},1,52000,USD,`,
  `2025-02-03,buy,Brennan,${CARD},2,9000,USD,`,
  `2025-03-20,sell,Brennan,${CARD},1,4700,USD,one of two`,
].join('\n');

/** As every format prints a return: "+4.2 %", "−0.3 %". */
const pct = (n: number) => `${n < 0 && Math.abs(n).toFixed(1) !== '0.0' ? '−' : '+'}${Math.abs(n).toFixed(1)} %`;

let sb: TestSandbox;
const dir = tempDir('svc-one-engine-');
const db = join(dir, 'db');
const out = (asOf: string) => join(dir, 'out', asOf);
const json = (asOf: string, stem: string) => JSON.parse(readFileSync(join(out(asOf), `${stem}-${asOf}.json`), 'utf8'));
const slug = (p: string) => p.toLowerCase();
const last = MONTHS.at(-1)!;
const before = MONTHS.at(-2)!;
/** What the database recorded for the month before the last, read with its own queries. */
const recorded: Record<string, { value: number; holdings: HoldingValuation[] }> = {};

beforeAll(async () => {
  const ledger = join(dir, 'ledger.csv');
  writeFileSync(ledger, `${LEDGER}\n`);
  sb = await testSandbox();
  for (const asOf of MONTHS) {
    const formats = asOf === last ? 'json,pdf,xlsx' : 'json';
    const r = await runCli(['run', ledger, '--out', out(asOf), '--as-of', asOf, '--db', db, '--formats', formats], serviceEnv(sb));
    if (r.code !== 0) throw new Error(`run as of ${asOf} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  }
  const opened = await openDatabase(db);
  try {
    for (const p of PORTFOLIOS) {
      const m = (await monthEnds(opened, p)).find((x) => x.asOf === before)!;
      recorded[p] = { value: m.value, holdings: await monthEndHoldings(opened, p, before) };
    }
  } finally {
    await close(opened);
  }
}, 400_000);
afterAll(async () => {
  await sb?.close();
});

describe('one performance engine, month-on-month from the history database', () => {
  it('month-on-month and every holding\'s month column equal the recorded month-end; the month\'s return is the month-to-date period\'s', () => {
    for (const p of PORTFOLIOS) {
      const r = json(last, slug(p));
      expect(r.summary.returns_source).toBe("the firm's history database");
      const mom = r.summary.month_on_month;
      expect(mom.previous_as_of).toBe(before);
      expect(mom.previous_value).toBeCloseTo(recorded[p]!.value, 2);
      expect(mom.change).toBeCloseTo(r.summary.current_value - recorded[p]!.value, 1);
      expect(mom.return_percent).toBe(r.performance.periods.mtd.twr_percent);
      // Each holding against the same asset recorded at the month-end before (nothing matched twice).
      const left = [...recorded[p]!.holdings];
      for (const h of r.holdings) {
        const at = left.findIndex((x) => x.assetId === h.asset_id);
        if (at < 0) {
          expect(h.month_on_month_change, `${p} ${h.description}`).toBeNull();
          continue;
        }
        const then = left.splice(at, 1)[0]!.valueMid;
        expect(h.month_on_month_change, `${p} ${h.description}`).toBeCloseTo(h.current_value - then, 1);
        expect(h.month_on_month_percent).toBeCloseTo(((h.current_value - then) / then) * 100, 6);
      }
    }
    // Brennan sold one of its two cards: the holding left is matched, so at least one month column is filled in each, and moved.
    for (const p of PORTFOLIOS) expect(json(last, slug(p)).holdings.some((h: { month_on_month_percent: number | null }) => h.month_on_month_percent !== null && h.month_on_month_percent !== 0)).toBe(true);
    for (const p of PORTFOLIOS) expect(json(last, slug(p)).summary.month_on_month.return_percent).not.toBeNull();
  });

  it("every report's summary money- and time-weighted returns are its since-inception ones, with the same reasons when missing", () => {
    for (const asOf of MONTHS) {
      for (const p of PORTFOLIOS) {
        const r = json(asOf, slug(p));
        const si = r.performance.periods.since_inception;
        expect(r.summary.money_weighted_return_percent, `${p} ${asOf}`).toBe(si.mwr_percent);
        expect(r.summary.time_weighted_return_percent, `${p} ${asOf}`).toBe(si.twr_percent);
        expect(r.summary.returns_since).toEqual({ from: si.from, days: expect.any(Number), annualised: si.annualised });
        expect(r.summary.twr_from).toBe(si.twr_percent === null ? null : si.from);
      }
    }
    // Every month-end recorded since the first flow: the time-weighted return is there from the second month.
    for (const p of PORTFOLIOS) expect(json(last, slug(p)).summary.time_weighted_return_percent).not.toBeNull();
    // The first month has nothing earlier: no month-on-month, and the reason review prints.
    expect(json(MONTHS[0], 'ashford').summary.month_on_month).toBeNull();
    expect(json(MONTHS[0], 'ashford').summary.returns_unavailable.month_on_month).toBe('no earlier month-end recorded');
  });

  it('the PDF states one money-weighted and one time-weighted return on the summary and the performance page (pdftotext)', () => {
    for (const p of PORTFOLIOS) {
      const r = json(last, slug(p));
      const text = pdfText(join(out(last), `${slug(p)}-${last}.pdf`));
      const pages = text.split('\f');
      const mwr = pct(r.summary.money_weighted_return_percent);
      const twr = pct(r.summary.time_weighted_return_percent);
      const summary = pages.find((t) => /money-weighted, /.test(t))!;
      expect(summary, p).toBeDefined();
      expect(summary).toContain(mwr);
      // The figure notes under the summary: both returns, since the first flow.
      const notes = text.replace(/\s+/g, ' ');
      expect(notes).toContain(`Time-weighted return since`);
      expect(notes).toMatch(new RegExp(`Time-weighted return since [^:]+: ${twr.replace('+', '\\+')}`));
      const inception = text.split('\n').find((l) => l.trimStart().startsWith('Since inception'))!;
      expect(inception, p).toBeDefined();
      expect(inception).toContain(twr);
      expect(inception).toContain(mwr);
      // The summary's change on the month is the database's.
      expect(summary).toMatch(/Change since last month-end/);
    }
  });

  it('the xlsx Summary holds the same figures (openpyxl)', async () => {
    const script = [
      'import json, sys, openpyxl',
      'ws = openpyxl.load_workbook(sys.argv[1])["Summary"]',
      'print(json.dumps([[c.value for c in row[:2]] for row in ws.iter_rows()], default=str))',
    ].join('\n');
    for (const p of PORTFOLIOS) {
      const r = json(last, slug(p));
      const { stdout } = await exec(PYTHON, ['-c', script, join(out(last), `${slug(p)}-${last}.xlsx`)]);
      const rows = JSON.parse(stdout) as [string | null, unknown][];
      const value = (label: RegExp) => rows.find(([l]) => typeof l === 'string' && label.test(l))?.[1];
      expect(value(/^Money-weighted return/)).toBeCloseTo(r.summary.money_weighted_return_percent / 100, 9);
      expect(value(/^Time-weighted return/)).toBeCloseTo(r.summary.time_weighted_return_percent / 100, 9);
      expect(value(new RegExp(`^Value change since the ${before} month-end`))).toBeCloseTo(r.summary.month_on_month.change, 2);
      expect(value(/^Month's time-weighted return/)).toBeCloseTo(r.performance.periods.mtd.twr_percent / 100, 9);
    }
  });

  it("the consolidated report's money figures are the sums of its portfolios'; its rows carry their portfolio's month column", () => {
    const c = json(last, 'consolidated');
    const parts = PORTFOLIOS.map((p) => json(last, slug(p)));
    const total = (f: (r: any) => number) => parts.reduce((s, r) => s + f(r), 0);
    expect(c.summary.current_value).toBeCloseTo(total((r) => r.summary.current_value), 1);
    expect(c.summary.month_on_month.previous_as_of).toBe(before);
    expect(c.summary.month_on_month.previous_value).toBeCloseTo(total((r) => r.summary.month_on_month.previous_value), 1);
    expect(c.summary.month_on_month.change).toBeCloseTo(total((r) => r.summary.month_on_month.change), 1);
    const own = parts.flatMap((r) => r.holdings.map((h: any) => [h.portfolio, h.row, h.month_on_month_change]));
    expect(c.holdings.map((h: any) => [h.portfolio, h.row, h.month_on_month_change])).toEqual(own);
    expect(c.summary.returns_source).toBe("the firm's history database");
  });

  it("review's movers are the recorded month-end's; with no earlier month-end they are not checked", async () => {
    const r = await runCli(['review', out(last), '--flag-move', '0.0001']);
    expect(r.code, r.stderr).toBe(0);
    for (const p of PORTFOLIOS) {
      const doc = json(last, slug(p));
      const left = [...recorded[p]!.holdings];
      const moved: string[] = [];
      for (const h of doc.holdings) {
        const at = left.findIndex((x) => x.assetId === h.asset_id);
        if (at < 0) continue;
        const then = left.splice(at, 1)[0]!.valueMid;
        const percent = ((h.current_value - then) / then) * 100;
        if (Math.abs(percent) > 0.0001) moved.push(`    ${h.description} (row ${h.row}): ${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %`);
      }
      const block = r.stdout.slice(r.stdout.indexOf(`${p} (client report`));
      const lines = block.split('\n');
      const head = lines.findIndex((l) => l.startsWith('  Moved more than 0.0001 % since last month:'));
      expect(lines[head]).toBe(`  Moved more than 0.0001 % since last month: ${moved.length === 0 ? 'none' : moved.length}`);
      expect(lines.slice(head + 1, head + 1 + moved.length)).toEqual(moved);
      expect(moved.length, p).toBeGreaterThan(0);
    }
    const first = await runCli(['review', out(MONTHS[0])]);
    expect(first.code, first.stderr).toBe(0);
    const said = first.stdout.split('\n').filter((l) => l.startsWith('  Moved more than'));
    expect(said.length).toBe(3);
    for (const l of said) expect(l).toBe('  Moved more than 25 % since last month: not checked: no earlier month-end recorded');
    expect(first.stdout).toContain('no change on the month: no earlier month-end recorded');
    expect(readdirSync(out(MONTHS[0])).some((n) => n.startsWith('consolidated-'))).toBe(true);
  }, 120_000);

  it('history import --help names the schemas up to the one run writes', async () => {
    const written = json(last, 'ashford').schema_version as string;
    const help = await runCli(['history', 'import', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(`(schema 1.0 to ${written.split('.').slice(0, 2).join('.')}, as \`run\` writes them)`);
  }, 60_000);
});
