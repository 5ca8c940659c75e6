/**
 * Issue 19 end to end through the real command: purchases in six currencies, an exchange-rates
 * file in the ECB's own layout, a report in CHF. Every figure is checked against an independent
 * computation from the rates file and from the JSON's own cash flows.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-fx-');
});
afterAll(async () => {
  await sb?.close();
});

/** As the ECB publishes it: newest first, a column per currency, N/A, a trailing comma. */
const ECB = `Date,USD,JPY,BGN,CYP,GBP,CHF,HKD,SGD,
2026-10-30,1.0850,162.10,1.9558,N/A,0.84200,0.9310,8.4400,1.4300,
2026-09-30,1.0790,160.40,1.9558,N/A,0.83800,0.9360,8.3900,1.4250,
2023-04-04,1.0950,144.80,1.9558,N/A,0.87800,0.9950,8.5960,1.4560,
2022-02-01,1.1250,129.20,1.9558,N/A,0.83300,1.0390,8.7700,1.5200,
2021-06-15,1.2120,133.40,1.9558,N/A,0.86000,1.0890,9.4100,1.6100,
2020-03-02,1.1100,119.50,1.9558,N/A,0.86500,1.0660,8.6500,1.5400,
2019-11-20,1.1070,120.30,1.9558,N/A,0.85600,1.0980,8.6600,1.5100,
2019-05-10,1.1220,123.40,1.9558,N/A,0.86300,1.1390,8.8100,1.5300,
`;

/** Rates per 1 EUR straight from the text above, for the independent check. */
function ecbRate(currency: string, date: string): number {
  if (currency === 'EUR') return 1;
  const [head, ...lines] = ECB.trim().split('\n');
  const col = head!.split(',').indexOf(currency);
  const line = lines.find((l) => l.startsWith(date))!;
  return Number(line.split(',')[col]);
}

const HEADER = 'segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency';
const PURCHASES = [
  'watches,Rolex,Submariner Date,126610LN,2021,very_good,1,12500,2021-06-15,CHF',
  'bags,Hermès,Birkin 30 Togo,,2020,excellent,1,98000,2020-03-02,HKD',
  'wine,Château Lafite Rothschild,Pauillac,,2010,excellent,2,9800,2019-11-20,GBP',
  'watches,Patek Philippe,Nautilus,5711/1A-010,2019,very_good,1,8900000,2019-05-10,JPY',
  'watches,Audemars Piguet,Royal Oak Selfwinding,15500ST.OO.1220ST.01,2020,very_good,1,52000,2022-02-01,SGD',
  'watches,Omega,Speedmaster Moonwatch Professional,310.30.42.50.01.001,2021,very_good,1,6200,2023-04-04,EUR',
];

/** XIRR by Newton's method with a secant fallback: written here, not imported, so the job's own solver is checked. */
function independentIrr(flows: { date: string; amount: number }[]): number {
  const t0 = Date.parse(`${flows[0]!.date}T00:00:00Z`);
  const years = flows.map((f) => (Date.parse(`${f.date}T00:00:00Z`) - t0) / 86_400_000 / 365);
  const npv = (r: number) => flows.reduce((s, f, i) => s + f.amount / Math.pow(1 + r, years[i]!), 0);
  let a = 0.0;
  let b = 0.1;
  for (let i = 0; i < 200 && Math.abs(b - a) > 1e-12; i++) {
    const fa = npv(a);
    const fb = npv(b);
    const next = b - (fb * (b - a)) / (fb - fa);
    a = b;
    b = next;
  }
  return b * 100;
}

interface JsonHolding {
  row: number;
  purchase_currency: string;
  purchase_price_original: number;
  purchase_price: number;
  purchase_date: string;
  fx_rate_purchase: number;
  fx_rate_as_of: number;
  current_value: number;
  money_weighted_return_percent: number | null;
  net_realisable_value: number | null;
}

describe('svc-report with --fx-rates: six purchase currencies, a CHF report', () => {
  it('values every holding, converts at the right dates, and its IRR, FX split and history check out independently', async () => {
    const rates = join(dir, 'eurofxref-hist.csv');
    writeFileSync(rates, ECB);
    const holdings = join(dir, 'zurich-client.csv');
    writeFileSync(holdings, [HEADER, ...PURCHASES].join('\n') + '\n');
    const sept = join(dir, 'out-2026-09');
    const oct = join(dir, 'out-2026-10');
    const common = [holdings, '--currency', 'CHF', '--fx-rates', rates, '--formats', 'json,xlsx,pdf'];

    const first = await runCli(['run', ...common, '--out', sept, '--as-of', '2026-09-30'], serviceEnv(sb));
    expect(first.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(first.code).toBe(0);
    const r = await runCli(['run', ...common, '--out', oct, '--as-of', '2026-10-31', '--previous', sept], serviceEnv(sb));
    expect(r.code).toBe(0);

    const json = readJson(join(oct, 'zurich-client-2026-10-31.json'));
    expect(json.schema_version).toMatch(/^1\.[1-9]\d*\.\d+$/);
    expect(json.currency).toBe('CHF');
    const rows = json.holdings as JsonHolding[];
    expect(rows.map((h) => h.purchase_currency)).toEqual(['CHF', 'HKD', 'GBP', 'JPY', 'SGD', 'EUR']);

    // Purchases at the purchase date's rate, values at the as-of date's (Saturday 31 October: Friday's rate).
    for (const h of rows) {
      const atPurchase = ecbRate('CHF', h.purchase_date) / ecbRate(h.purchase_currency, h.purchase_date);
      const atAsOf = ecbRate('CHF', '2026-10-30') / ecbRate(h.purchase_currency, '2026-10-30');
      expect(Math.abs(h.fx_rate_purchase / atPurchase - 1), `row ${h.row} purchase rate`).toBeLessThan(1e-4);
      expect(Math.abs(h.fx_rate_as_of / atAsOf - 1), `row ${h.row} as-of rate`).toBeLessThan(1e-4);
      expect(Math.abs(h.purchase_price / (h.purchase_price_original * atPurchase) - 1), `row ${h.row} converted cost`).toBeLessThan(1e-4);
    }

    // The portfolio's IRR from the JSON's own cash flows: each purchase (CHF) on its date, the value on the as-of date.
    const flows = [...rows.map((h) => ({ date: h.purchase_date, amount: -h.purchase_price })), { date: json.as_of, amount: json.summary.current_value }].sort((a, b) =>
      a.date.localeCompare(b.date),
    );
    expect(Math.abs(json.summary.money_weighted_return_percent - independentIrr(flows))).toBeLessThan(0.05);
    // A single purchase's IRR is its compound annual growth rate.
    for (const h of rows) {
      const years = (Date.parse(`${json.as_of}T00:00:00Z`) - Date.parse(`${h.purchase_date}T00:00:00Z`)) / 86_400_000 / 365;
      const cagr = (Math.pow(h.current_value / h.purchase_price, 1 / years) - 1) * 100;
      expect(Math.abs(h.money_weighted_return_percent! - cagr), `row ${h.row} IRR`).toBeLessThan(0.05);
    }

    // What the currency did and what the asset did add up to the gain, to the cent.
    const s = json.summary;
    expect(Math.abs(s.fx_effect + s.asset_effect - s.gain)).toBeLessThanOrEqual(0.011);
    const fxIndependent = rows.reduce((sum, h) => sum + h.purchase_price_original * (h.fx_rate_as_of - h.fx_rate_purchase), 0);
    expect(s.fx_effect).toBeCloseTo(fxIndependent, 1);
    expect(s.coverage).toMatchObject({ valued_count: 6, valued_percent: 100, not_valued_count: 0 });

    // The summary's time-weighted return is the since-inception period's (issue 34): the purchases go back years before
    // the first month-end recorded, so it is not given, with the performance page's reason; the month's return is.
    expect(s.twr_from).toBeNull();
    expect(s.time_weighted_return_percent).toBeNull();
    expect(s.returns_unavailable.time_weighted).toBe(json.performance.periods.since_inception.note);
    expect(s.month_on_month.return_percent).toBe(json.performance.periods.mtd.twr_percent);
    // Nothing bought during October: the month's return is the value change.
    expect(s.month_on_month.return_percent).toBeCloseTo(s.month_on_month.change_percent, 3);
    // Net realisable value where the exit analysis covers the holding (the five largest).
    expect(rows.filter((h) => h.net_realisable_value !== null)).toHaveLength(5);
  });

  it('refuses a purchase whose rate is more than 7 days old, naming the currency and the date, and values the rest', async () => {
    const rates = join(dir, 'rates-plain.csv');
    writeFileSync(rates, 'date,currency,rate_per_eur\n2026-10-30,USD,1.085\n2026-10-30,CHF,0.931\n2021-06-15,CHF,1.089\n2021-06-01,USD,1.2\n');
    const holdings = join(dir, 'gap.csv');
    writeFileSync(holdings, [HEADER, PURCHASES[0]!, 'watches,Rolex,Cosmograph Daytona,116500LN,2020,very_good,1,28000,2021-06-15,USD'].join('\n') + '\n');
    const out = join(dir, 'out-gap');
    const r = await runCli(['run', holdings, '--currency', 'CHF', '--fx-rates', rates, '--formats', 'json', '--out', out, '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.code).toBe(3);
    const json = readJson(join(out, 'gap-2026-10-31.json'));
    expect(json.holdings).toHaveLength(1);
    expect(json.errors).toEqual([expect.objectContaining({ row: 3, field: 'currency', message: expect.stringMatching(/no exchange rate for USD on 2021-06-15.*2021-06-01, more than 7 days earlier/) })]);
    expect(json.summary.coverage).toMatchObject({ valued_count: 1, not_valued_count: 1 });
  });
});
