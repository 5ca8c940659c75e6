/**
 * Issue 19 in the PDF: a report in CHF of purchases in four currencies, through the real
 * command, read back with `pdftotext -layout`. The holdings table shows what the xlsx, csv and
 * json have: the price paid in its own currency (with its code) where that is not the report's,
 * the exchange rates of the purchase and as-of dates, and each holding's money-weighted return.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmountIn, formatRate, formatReturn } from '../../reports/writers/text-format';
import { csvFile, pdfText, readJson, reportFiles, runCli, serviceEnv, tempDir, testSandbox, watchRows, type TestSandbox } from './helpers';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await testSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const CURRENCIES = ['CHF', 'USD', 'JPY', 'GBP'];
/** Rates per 1 EUR, made up for the test (not the ECB's): each currency's own level, each moving at its own pace by date. */
const LEVEL: Record<string, number> = { CHF: 1.05, USD: 1.12, JPY: 131.7, GBP: 0.861 };

interface JsonHolding {
  row: number;
  purchase_date: string;
  purchase_currency: string;
  purchase_price_original: number;
  fx_rate_purchase: number;
  fx_rate_as_of: number;
  money_weighted_return_percent: number | null;
}

describe('PDF holdings table of a multi-currency portfolio (pdftotext -layout)', () => {
  const dir = tempDir('svc-report-fx-pdf-');
  let text: string;
  let holdings: JsonHolding[];

  beforeAll(async () => {
    // watchRows' purchase dates are 2016-01-10, 2017-02-11, 2018-03-12, 2019-04-13; the as-of date's rates are the day before.
    const rows = watchRows(CURRENCIES.length).map((line, i) => line.replace(',USD,', `,${CURRENCIES[i]},`));
    const dates = ['2016-01-10', '2017-02-11', '2018-03-12', '2019-04-13', '2026-10-30'];
    const rates = dates.flatMap((d, k) => Object.entries(LEVEL).map(([code, level], c) => `${d},${code},${(level * (1 + 0.03 * k * c)).toPrecision(6)}`));
    writeFileSync(join(dir, 'rates.csv'), ['date,currency,rate_per_eur', ...rates].join('\n') + '\n');
    writeFileSync(join(dir, 'geneva.csv'), csvFile(rows));
    const out = join(dir, 'out');
    const r = await runCli(['run', join(dir, 'geneva.csv'), '--currency', 'CHF', '--fx-rates', join(dir, 'rates.csv'), '--formats', 'xlsx,csv,json,pdf', '--out', out, '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(r.code).toBe(0);
    const files = reportFiles(out, 'geneva');
    holdings = readJson(files.json).holdings;
    text = pdfText(files.pdf);
  }, 180_000);

  it('heads the table with Cost, FX rate and IRR', () => {
    expect(text).toMatch(/Row\s+Holding\s+Segment\s+Qty\s+Purchased\s+Cost\s+FX rate\s+Value \(range\)\s+Return\s+IRR\s+Weight/);
  });

  it("shows each foreign purchase's price with its code and both rates, and none for the report's own currency", () => {
    expect(holdings.map((h) => h.purchase_currency)).toEqual(CURRENCIES);
    for (const h of holdings.filter((x) => x.purchase_currency !== 'CHF')) {
      expect(h.fx_rate_purchase).not.toBe(h.fx_rate_as_of);
      expect(text, `row ${h.row}`).toContain(formatAmountIn(h.purchase_price_original, h.purchase_currency));
      expect(text, `row ${h.row}`).toContain(formatRate(h.fx_rate_purchase));
      expect(text, `row ${h.row}`).toContain(`now ${formatRate(h.fx_rate_as_of)}`);
    }
    const chf = holdings.find((h) => h.purchase_currency === 'CHF')!;
    // The CHF row's line reads: row, …, date, cost, then a dash where the rate would be.
    const line = text.split('\n').find((l) => new RegExp(`^\\s*${chf.row}\\s`).test(l) && l.includes(chf.purchase_date))!;
    expect(line).toMatch(/CHF [\d,]+\s+–\s+CHF [\d,]+/);
  });

  it("shows each holding's money-weighted return", () => {
    for (const h of holdings) {
      expect(h.money_weighted_return_percent).not.toBeNull();
      const line = text.split('\n').find((l) => new RegExp(`^\\s*${h.row}\\s`).test(l) && l.includes(h.purchase_date))!;
      expect(line, `row ${h.row}`).toContain(formatReturn(h.money_weighted_return_percent));
    }
  });
});
