import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHoldings } from '../../src/holdings/load';
import { columnForHeader } from '../../src/holdings/columns';
import { readRunInputs } from '../../reports/run/run-inputs';

const dir = mkdtempSync(join(tmpdir(), 'insurance-input-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const HEAD = 'Portfolio,Segment,Brand,Model,Reference,Year,Quantity,Purchase Price,Purchase Date,Currency,Notes';

describe('cover columns in a holdings file', () => {
  it('forgiving headers name the cover columns', () => {
    expect(columnForHeader('Sum Insured')).toBe('insured_value');
    expect(columnForHeader('Insured Value (EUR)')).toBe('insured_value');
    expect(columnForHeader('Insured CCY')).toBe('insured_currency');
    expect(columnForHeader('Insurance Company')).toBe('insurer');
    expect(columnForHeader('Policy No.')).toBe('policy');
    expect(columnForHeader('Renewal')).toBe('renewal_date');
    expect(columnForHeader('Serial Number')).toBe('serial');
    expect(columnForHeader('Inventory No')).toBe('serial');
  });

  it('the shared fixture: every cover field read, in its currency', async () => {
    const { portfolios } = await loadHoldings([resolve(import.meta.dirname, '../fixtures/insurance/holdings.csv')], { asOf: '2026-09-30' });
    const [p] = portfolios;
    expect(p!.problems).toEqual([]);
    expect(p!.holdings.map((h) => h.cover)).toEqual([
      { insured_value: 14000, insurer: 'Hiscox', policy: 'HX-44120', renewal_date: '2027-03-31', serial: '7Z41K902' },
      { insured_value: 95000, insurer: 'Hiscox', policy: 'HX-44120', renewal_date: '2026-10-30', serial: '5711-3920118' },
      { insured_value: 21000, insurer: 'Hiscox', policy: 'HX-44120', renewal_date: '2027-03-31', serial: 'GR-RGP657-0193' },
      { insured_value: 300000, insurer: 'Chubb', policy: 'CH-901-77', renewal_date: '2027-05-31', serial: 'HIM-2015-044' },
      { insured_value: 1150000, insured_currency: 'EUR', insurer: 'Chubb', policy: 'CH-901-77', renewal_date: '2027-05-31', serial: '9113600422' },
      undefined,
    ]);
  });

  it('bad values refused by row and field with what is allowed; the holding kept with its other fields and cover', async () => {
    const f = file(
      'bad.csv',
      [
        `${HEAD},Sum Insured,Insured Currency,Insurer,Policy,Renewal Date,Serial`,
        'P,watches,Rolex,Submariner Date,126610LN,2021,1,9800,2021-06-14,USD,keep me,-5,,Hiscox,H1,2027-01-31,S1',
        'P,watches,Rolex,Daytona,116500LN,2020,1,25000,2020-01-10,USD,,lots,,Hiscox,H1,,S2',
        'P,watches,Omega,Speedmaster,310.30.42.50.01.001,2022,1,7000,2022-03-01,USD,,7000,XYZ,Chubb,,,',
        'P,watches,Cartier,Santos,WSSA0018,2021,1,6500,2021-05-01,USD,,6000,,Chubb,C9,31/02/2027,',
        'P,watches,Tudor,Black Bay,M79230N,2021,1,3500,2021-05-01,USD,,3500,,,,,',
      ].join('\n'),
    );
    const { portfolios } = await loadHoldings([f], { asOf: '2026-09-30' });
    const p = portfolios[0]!;
    expect(p.holdings.map((h) => h.source.row)).toEqual([2, 3, 4, 5, 6]);
    expect(p.problems.map((x) => [x.row, x.field, x.value])).toEqual([
      [2, 'insured_value', '-5'],
      [3, 'insured_value', 'lots'],
      [4, 'insured_currency', 'XYZ'],
      [5, 'renewal_date', '31/02/2027'],
    ]);
    expect(p.problems[0]!.reason).toMatch(/insured_value must be a number of 0 or more.*the holding is still valued/);
    expect(p.problems[2]!.reason).toMatch(/ISO 4217/);
    expect(p.problems[3]!.reason).toMatch(/renewal_date .*YYYY-MM-DD/);
    const [a, b, c, d, e] = p.holdings;
    expect(a).toMatchObject({ notes: 'keep me', purchasePrice: 9800, cover: { insurer: 'Hiscox', policy: 'H1', renewal_date: '2027-01-31', serial: 'S1' }, coverRefused: true });
    expect(a!.cover!.insured_value).toBeUndefined();
    expect(b!.coverRefused).toBe(true);
    expect(c).toMatchObject({ cover: { insured_value: 7000, insurer: 'Chubb' }, coverRefused: true });
    // A bad renewal date leaves the insured value known: the item is still reviewed.
    expect(d).toMatchObject({ cover: { insured_value: 6000, insurer: 'Chubb', policy: 'C9' } });
    expect(d!.coverRefused).toBeUndefined();
    expect(e!.cover).toEqual({ insured_value: 3500 });
  });

  it('a file without cover columns: no cover on any holding', async () => {
    const f = file('plain.csv', `${HEAD}\nP,watches,Rolex,Submariner Date,126610LN,2021,1,9800,2021-06-14,USD,`);
    const { portfolios } = await loadHoldings([f], { asOf: '2026-09-30' });
    expect(portfolios[0]!.holdings[0]!.cover).toBeUndefined();
    expect(portfolios[0]!.problems).toEqual([]);
  });
});

describe('cover columns in a transactions file (per lot)', () => {
  it("a buy's cover is its lot's; a bad one refused by row and field, the lot still held; a sale's cover refused", async () => {
    const f = file(
      'ledger.csv',
      [
        'date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,insured_value,insurer,renewal_date',
        '2024-01-10,buy,L,watches,Rolex,Submariner Date,126610LN,2021,1,9800,USD,15000,Hiscox,2026-10-15',
        '2024-02-10,buy,L,watches,Rolex,Daytona,116500LN,2020,1,25000,USD,abc,Hiscox,',
        '2024-03-10,buy,L,watches,Omega,Speedmaster,310.30.42.50.01.001,2022,2,14000,USD,,,',
        '2025-03-10,sell,L,watches,Omega,Speedmaster,310.30.42.50.01.001,2022,1,7600,USD,8000,,',
      ].join('\n'),
    );
    const inputs = await readRunInputs([f], { asOf: '2026-09-30' });
    const p = inputs.portfolios[0]!;
    expect(p.holdings.map((h) => [h.source.row, h.cover, h.coverRefused])).toEqual([
      [2, { insured_value: 15000, insurer: 'Hiscox', renewal_date: '2026-10-15' }, undefined],
      [3, { insurer: 'Hiscox' }, true],
      [4, undefined, undefined],
    ]);
    expect(p.problems.map((x) => [x.row, x.field])).toEqual([
      [3, 'insured_value'],
      [5, 'insured_value'],
    ]);
    expect(p.problems[1]!.reason).toMatch(/belongs on the row that opens a lot/);
  });
});
