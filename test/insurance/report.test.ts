/**
 * The insurance review in the month-end report (issue 37), end to end against the sandbox: every
 * figure of the JSON and CSV equals a computation made here, independently of src/insurance, from
 * the report's own valuations (its holdings' current_value and value_high), the fixture's cover
 * columns and the rates file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

const FIXTURE = join(ROOT, 'test/fixtures/insurance/holdings.csv');
const RATES = join(ROOT, 'examples/fx-rates-ILLUSTRATIVE.csv');
const AS_OF = '2026-09-30';
const REPORT = 'ashcombe-collection-2026-09-30';

type Row = Record<string, string>;
const fixtureRows: Row[] = parse(readFileSync(FIXTURE, 'utf8'), { columns: true });

/** Units of `currency` per EUR on the newest day on or before AS_OF, read from the rates file as published. */
function perEur(currency: string): number {
  const lines = readFileSync(RATES, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  const head = lines[0]!.split(',');
  const col = head.indexOf(currency);
  const row = lines.slice(1).map((l) => l.split(',')).filter((c) => c[0]! <= AS_OF).sort((a, b) => (a[0]! < b[0]! ? 1 : -1))[0]!;
  return Number(row[col]);
}

interface Expected {
  row: number;
  insured: number | null;
  replacement: number;
  gap: number | null;
  status: string;
  renewal: string | null;
}

/** The review as the issue states its rules, from the report's holdings and the fixture's cells. */
function expected(report: { holdings: { row: number; current_value: number; value_high: number }[] }, basis: 'mid' | 'high', tolerance: number): Expected[] {
  return report.holdings.map((h) => {
    const cells = fixtureRows[h.row - 2]!;
    const amount = cells['Insured Value'] ? Number(cells['Insured Value']) : null;
    const currency = cells['Insured Currency'] || cells['Currency']!;
    // Rates are per EUR: an amount in C is amount / (C per EUR) EUR, × (USD per EUR) USD.
    const insured = amount === null ? null : currency === 'USD' ? amount : (amount / (currency === 'EUR' ? 1 : perEur(currency))) * perEur('USD');
    const replacement = basis === 'mid' ? h.current_value : h.value_high;
    const status = insured === null ? 'not-insured' : insured < replacement * (1 - tolerance) ? 'under-insured' : insured > 1.25 * h.value_high ? 'over-insured' : 'covered';
    return { row: h.row, insured, replacement, gap: insured === null ? null : replacement - insured, status, renewal: cells['Renewal Date'] || null };
  });
}

let sb: TestSandbox;
const dir = tempDir('insurance-report-');
const env = () => ({ ...serviceEnv(sb), XDG_DATA_HOME: dir });
const run = async (name: string, file: string, extra: string[] = []) => {
  const out = join(dir, name);
  const r = await runCli(['run', file, '--out', out, '--formats', 'json,csv', '--as-of', AS_OF, '--fx-rates', RATES, '--db', 'off', ...extra], env());
  return { r, out };
};
const readReport = (out: string, name = REPORT) => JSON.parse(readFileSync(join(out, `${name}.json`), 'utf8'));
const readCsv = (out: string, name = REPORT): Row[] => parse(readFileSync(join(out, `${name}.csv`), 'utf8').replace(/^\uFEFF/, ''), { columns: true });

beforeAll(async () => {
  sb = await testSandbox();
});
afterAll(async () => {
  await sb?.close();
});

describe('the insurance review in the report', () => {
  let defaults: { r: Awaited<ReturnType<typeof runCli>>; out: string };
  beforeAll(async () => {
    defaults = await run('defaults', FIXTURE);
  });

  it('JSON: every item, status, gap and total equals the computation from the report\'s own valuations (high, 10 %)', () => {
    expect(defaults.r.code, defaults.r.stderr).toBe(0);
    const report = readReport(defaults.out);
    const want = expected(report, 'high', 0.1);
    const ins = report.insurance;
    expect(ins).toMatchObject({ basis: 'high', tolerance: 0.1, over_insured_factor: 1.25, renewal_window_days: 60 });
    expect(ins.items).toHaveLength(6);
    for (const w of want) {
      const item = ins.items.find((i: { row: number }) => i.row === w.row);
      const h = report.holdings.find((x: { row: number }) => x.row === w.row);
      const cells = fixtureRows[w.row - 2]!;
      expect(item.asset_id).toBe(h.asset_id);
      expect(item.status, `row ${w.row}`).toBe(w.status);
      expect(item.replacement_value).toBeCloseTo(w.replacement, 2);
      if (w.insured === null) expect([item.insured_value, item.gap]).toEqual([null, null]);
      else {
        expect(item.insured_value).toBeCloseTo(w.insured, 2);
        expect(item.gap).toBeCloseTo(w.gap!, 2);
      }
      expect([item.insurer, item.policy, item.renewal_date, item.serial]).toEqual([cells['Insurer'] || null, cells['Policy'] || null, cells['Renewal Date'] || null, cells['Serial'] || null]);
    }
    // Every status the fixture promises is there.
    expect(new Set(want.map((w) => w.status))).toEqual(new Set(['under-insured', 'over-insured', 'covered', 'not-insured']));
    // The EUR cover keeps its own amount beside the converted one.
    expect(ins.items.find((i: { insured_value_original?: unknown }) => i.insured_value_original).insured_value_original).toEqual({ amount: 1150000, currency: 'EUR' });
    // Totals.
    for (const s of ['under-insured', 'over-insured', 'covered', 'not-insured']) {
      const of = want.filter((w) => w.status === s);
      expect(ins.totals.by_status[s].count).toBe(of.length);
      expect(ins.totals.by_status[s].insured_value).toBeCloseTo(of.reduce((t, w) => t + (w.insured ?? 0), 0), 1);
      expect(ins.totals.by_status[s].replacement_value).toBeCloseTo(of.reduce((t, w) => t + w.replacement, 0), 1);
    }
    expect(ins.totals.total_shortfall).toBeCloseTo(want.filter((w) => w.status === 'under-insured').reduce((t, w) => t + w.gap!, 0), 1);
    // Sorted by shortfall, largest first.
    const under = want.filter((w) => w.status === 'under-insured').sort((a, b) => b.gap! - a.gap!).map((w) => w.row);
    expect(ins.items.slice(0, under.length).map((i: { row: number }) => i.row)).toEqual(under);
    // Renewals: within 60 days of the as-of date.
    const soon = want.filter((w) => w.renewal !== null && (Date.parse(w.renewal) - Date.parse(AS_OF)) / 86_400_000 <= 60 && w.renewal >= AS_OF).map((w) => w.row);
    expect(soon.length).toBeGreaterThan(0);
    expect(ins.renewals.map((i: { row: number }) => i.row)).toEqual(soon);
    expect(ins.renewals[0].renews_in_days).toBe(30);
  });

  it('CSV: insured value, replacement value, gap and status columns equal the same computation', () => {
    const report = readReport(defaults.out);
    const want = expected(report, 'high', 0.1);
    const rows = readCsv(defaults.out);
    const header = Object.keys(rows[0]!);
    expect(header.slice(-4)).toEqual(['insured_value', 'replacement_value', 'insurance_gap', 'insurance_status']);
    for (const w of want) {
      const r = rows.find((x) => Number(x['row']) === w.row)!;
      expect(r['insurance_status']).toBe(w.status);
      expect(Number(r['replacement_value'])).toBeCloseTo(w.replacement, 2);
      if (w.insured === null) expect([r['insured_value'], r['insurance_gap']]).toEqual(['', '']);
      else {
        expect(Number(r['insured_value'])).toBeCloseTo(w.insured, 2);
        expect(Number(r['insurance_gap'])).toBeCloseTo(w.gap!, 2);
      }
    }
  });

  for (const [flags, basis, tolerance] of [
    [['--replacement', 'mid'], 'mid', 0.1],
    [['--insurance-tolerance', '2'], 'high', 0.02],
  ] as const) {
    it(`${flags.join(' ')} changes exactly the items the rules say`, async () => {
      const base = expected(readReport(defaults.out), 'high', 0.1);
      const { r, out } = await run(flags.join(''), FIXTURE, [...flags]);
      expect(r.code, r.stderr).toBe(0);
      const report = readReport(out);
      const want = expected(report, basis, tolerance);
      expect(report.insurance).toMatchObject({ basis, tolerance });
      for (const w of want) {
        const item = report.insurance.items.find((i: { row: number }) => i.row === w.row);
        expect(item.status, `row ${w.row}`).toBe(w.status);
        expect(item.replacement_value).toBeCloseTo(w.replacement, 2);
      }
      // The flag changed something, and only where the rules say (the independent computation's own differences).
      const changed = want.filter((w, i) => w.status !== base[i]!.status).map((w) => w.row);
      const reportChanged = report.insurance.items.filter((i: { row: number; status: string }) => base.find((b) => b.row === i.row)!.status !== i.status).map((i: { row: number }) => i.row);
      expect(changed.length).toBeGreaterThan(0);
      expect(reportChanged.sort()).toEqual(changed.sort());
    });
  }

  it('a portfolio without insurance columns: no review in the JSON, no insurance columns in the CSV', async () => {
    const plain = join(dir, 'plain.csv');
    const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n').map((l) => l.split(',').slice(0, 12).join(','));
    writeFileSync(plain, lines.join('\n'));
    const { r, out } = await run('plain', plain);
    expect(r.code, r.stderr).toBe(0);
    const report = readReport(out, 'ashcombe-collection-2026-09-30');
    expect(report).not.toHaveProperty('insurance');
    expect(Object.keys(readCsv(out)[0]!)).not.toContain('insurance_status');
    expect(readFileSync(join(out, `${REPORT}.csv`), 'utf8')).not.toMatch(/insur/i);
  });

  it('bad cover cells: refused by row and field in the report\'s errors, the holding still valued, exit 3', async () => {
    const bad = join(dir, 'bad.csv');
    const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
    lines[1] = lines[1]!.replace(',14000,', ',-14000,');
    lines[3] = lines[3]!.replace(',2027-03-31,', ',2027-02-30,');
    writeFileSync(bad, lines.join('\n'));
    const { r, out } = await run('bad', bad);
    expect(r.code).toBe(3);
    const report = readReport(out);
    expect(report.holdings).toHaveLength(6);
    expect(report.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [2, 'insured_value'],
      [4, 'renewal_date'],
    ]);
    expect(report.errors[0].message).toMatch(/insured_value must be a number of 0 or more.*found "-14000"/);
    // Row 2's cover is unknown: left out of the review, never called "not insured"; row 4 still reviewed, without a renewal date.
    expect(report.insurance.items.map((i: { row: number }) => i.row).sort()).toEqual([3, 4, 5, 6, 7]);
    expect(report.insurance.items.find((i: { row: number }) => i.row === 4)).toMatchObject({ renewal_date: null, insurer: 'Hiscox' });
  });

  it('with a history database: under_insured_since is the first month-end of the unbroken under-insured run', async () => {
    const db = join(dir, 'history-db');
    const runAt = async (asOf: string) => {
      const out = join(dir, `history-${asOf}`);
      const r = await runCli(['run', FIXTURE, '--out', out, '--formats', 'json', '--as-of', asOf, '--fx-rates', RATES, '--db', db], env());
      expect(r.code, r.stderr).toBe(0);
      return readReport(out, `ashcombe-collection-${asOf}`);
    };
    const august = await runAt('2026-08-31');
    const september = await runAt('2026-09-30');
    const underIn = (report: Parameters<typeof expected>[0]) => new Set(expected(report, 'high', 0.1).filter((w) => w.status === 'under-insured').map((w) => report.holdings.find((h) => h.row === w.row) as unknown as { asset_id: string }).map((h) => h.asset_id));
    const before = underIn(august);
    const now = underIn(september);
    expect(now.size).toBeGreaterThan(0);
    for (const item of august.insurance.items) expect(item.under_insured_since).toBe(before.has(item.asset_id) ? '2026-08-31' : undefined);
    for (const item of september.insurance.items) expect(item.under_insured_since).toBe(now.has(item.asset_id) ? (before.has(item.asset_id) ? '2026-08-31' : '2026-09-30') : undefined);
    expect([...now].some((a) => before.has(a))).toBe(true);
    // history show says the same.
    const shown = await runCli(['history', 'show', '--portfolio', 'Ashcombe Collection', '--json', '--db', db], env());
    expect(shown.code, shown.stderr).toBe(0);
    const listed = JSON.parse(shown.stdout).under_insured.map((u: { asset_id: string; since: string }) => [u.asset_id, u.since]).sort();
    expect(listed).toEqual(september.insurance.items.filter((i: { under_insured_since?: string }) => i.under_insured_since).map((i: { asset_id: string; under_insured_since: string }) => [i.asset_id, i.under_insured_since]).sort());
 
    // Two month-ends on an embedded database (created on the first): minutes on a loaded machine.
  }, 600_000);

  it('refuses bad flags with a clear error and exit 2, before any call', async () => {
    for (const [flag, value, said] of [
      ['--replacement', 'low', /--replacement.*low.*(mid|high)/s],
      ['--insurance-tolerance', '120', /--insurance-tolerance must be a percent of value from 0 to 100, e\.g\. 10/],
      ['--insurance-tolerance', 'ten', /--insurance-tolerance must be a percent/],
    ] as const) {
      const r = await runCli(['run', FIXTURE, '--out', join(dir, 'flags'), '--as-of', AS_OF, flag, value], env());
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(r.stderr).toMatch(said);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
