import { describe, expect, it } from 'vitest';
import { MissingRateError, parseRates, RatesFileError } from '../../src/fx';

/** The ECB file as published: newest first, N/A where a currency had no fixing, a trailing comma. */
const ECB = `Date,USD,JPY,BGN,CYP,GBP,CHF,HKD,SGD,
2026-10-30,1.0850,162.10,1.9558,N/A,0.8420,0.9310,8.4400,1.4300,
2026-10-29,1.0820,161.80,1.9558,N/A,0.8410,0.9300,8.4200,1.4280,
2026-10-23,1.0700,160.00,1.9558,N/A,0.8400,0.9290,8.3300,1.4200,
2020-03-02,1.1100,120.00,1.9558,N/A,0.8600,1.0700,8.6500,1.5400,
`;

describe('exchange-rate files', () => {
  it('reads the ECB layout: N/A columns and the trailing comma skipped, rates per 1 EUR', () => {
    const t = parseRates(ECB, 'eurofxref-hist.csv');
    expect(t.currencies()).toEqual(['BGN', 'CHF', 'EUR', 'GBP', 'HKD', 'JPY', 'SGD', 'USD']);
    expect(t.quote('USD', '2026-10-30')).toEqual({ currency: 'USD', date: '2026-10-30', perEur: 1.085 });
    expect(t.covers('CYP')).toBe(false);
  });

  it('uses the day\'s rate or the last before it, and refuses one older than 7 days naming currency and date', () => {
    const t = parseRates(ECB);
    // Saturday 31 October: Friday's rate.
    expect(t.quote('CHF', '2026-10-31').date).toBe('2026-10-30');
    expect(t.quote('CHF', '2026-10-28').date).toBe('2026-10-23'); // 5 days old
    expect(() => t.quote('HKD', '2026-10-22')).toThrow(MissingRateError);
    expect(() => t.quote('HKD', '2026-10-22')).toThrow(/HKD on 2026-10-22.*2020-03-02, more than 7 days earlier/);
    expect(() => t.quote('HKD', '2019-01-01')).toThrow(/HKD on 2019-01-01/);
    expect(() => t.quote('NOK', '2026-10-30')).toThrow(/no exchange rate for NOK on 2026-10-30/);
  });

  it('converts through the euro', () => {
    const t = parseRates(ECB);
    expect(t.rate('GBP', 'USD', '2026-10-30')).toBeCloseTo(1.085 / 0.842, 12);
    expect(t.rate('EUR', 'JPY', '2026-10-30')).toBe(162.1);
    expect(t.rate('CHF', 'CHF', '1900-01-01')).toBe(1);
  });

  it('reads the plain date,currency,rate_per_eur layout', () => {
    const t = parseRates('date,currency,rate_per_eur\n2026-10-30,usd,1.085\n2026-10-30,CHF,0.931\n');
    expect(t.rate('CHF', 'USD', '2026-10-30')).toBeCloseTo(1.085 / 0.931, 12);
  });

  it('refuses a file it cannot use with the line and what is expected', () => {
    expect(() => parseRates('when,what\n1,2\n')).toThrow(RatesFileError);
    expect(() => parseRates('Date,USD,\n30/10/2026,1.08,\n')).toThrow(/line 2: the date must be YYYY-MM-DD \(found "30\/10\/2026"\)/);
    expect(() => parseRates('Date,USD,\n2026-10-30,abc,\n')).toThrow(/line 2: the USD rate must be a positive number/);
    expect(() => parseRates('Date,USD,\n')).toThrow(/holds no exchange rate/);
  });
});

describe('the demo rates file (examples/fx-rates-ILLUSTRATIVE.csv)', () => {
  it('says it is illustrative, reads in the ECB layout and covers every day of the demo holdings', async () => {
    const { readFile } = await import('node:fs/promises');
    const { readRatesFile } = await import('../../src/fx');
    const path = new URL('../../examples/fx-rates-ILLUSTRATIVE.csv', import.meta.url).pathname;
    expect((await readFile(path, 'utf8')).split('\n')[0]).toMatch(/^# ILLUSTRATIVE .*NOT the European Central Bank's/);
    const t = await readRatesFile(path);
    for (const c of ['USD', 'GBP', 'CHF', 'HKD', 'JPY', 'SGD']) {
      for (let d = Date.parse('2010-01-08T00:00:00Z'); d <= Date.parse('2026-11-23T00:00:00Z'); d += 86_400_000) {
        t.quote(c, new Date(d).toISOString().slice(0, 10));
      }
    }
  });
});
