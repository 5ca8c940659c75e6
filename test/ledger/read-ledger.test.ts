import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { columnForHeader, LEDGER_VOCABULARY } from '../../src/holdings/columns';
import { loadHoldings } from '../../src/holdings/load';
import { InputError } from '../../src/holdings/types';
import {
  describeLedgerProblem,
  holdingsAsLedger,
  isTransactionsFile,
  loadLedger,
  parseTransactionType,
} from '../../src/ledger/read-ledger';
import type { LedgerEntry, LedgerProblem } from '../../src/ledger/types';

/** The rows as the equality checks below name them; the asset's descriptors are checked on their own. */
const withoutAsset = (entries: readonly LedgerEntry[]) => entries.map(({ asset: _asset, ...rest }) => rest);
import { tempDir } from '../reports/helpers';

const rules = { asOf: '2026-03-31' };
let dir: string;
beforeAll(() => {
  dir = tempDir('svc-ledger-');
});

function write(name: string, content: string): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

/** Problems as [row, field], the shape the tests check first (reasons are checked where they matter). */
const where = (problems: readonly LedgerProblem[]) => problems.map((p) => [p.source.row, p.field]);

describe('transactions files: csv', () => {
  it('reads every type, descriptors and asset ids, portfolio-level fees and income, into entries by row', async () => {
    const file = write(
      'ledger.csv',
      [
        'Portfolio,Date,Type,Segment,Brand,Model,Reference,Year,Size,Asset ID,Quantity,Amount,Currency,Notes',
        'Okafor,2025-01-15,buy,watches,Rolex,Submariner Date,126610LN,2021,,,1,"12,500.00",USD,first watch',
        'Okafor,2025-02-01,Buy,wine,Domaine de la Romanée-Conti,La Tâche,,2015,75cl,,12,48000,EUR,',
        'Okafor,2025-03-10,SELL,wine,Domaine de la Romanée-Conti,La Tâche,,2015,75cl,,6,30000,EUR,half the case',
        'Okafor,2025-03-31,fee,,,,,,,,,250,USD,storage',
        'Okafor,2025-04-30,income,,,,,,,,,120.50,USD,',
        'Lindqvist,2025-05-02,Transfer In,,,,,,,SVC-WAT-PATEK-5711-2019,1,95000,CHF,inherited',
        'Lindqvist,2025-06-02,transfer_out,,,,,,,svc-wat-patek-5711-2019,1,47500,chf,',
        'Lindqvist,2025-07-01,fee,,,,,,,SVC-WAT-PATEK-5711-2019,,100,CHF,service',
      ].join('\n'),
    );
    const { entries, problems, afterAsOf, warnings } = await loadLedger([file], rules);
    expect(problems).toEqual([]);
    expect(afterAsOf).toBe(0);
    expect(warnings).toEqual([]);
    const src = (row: number) => ({ file, sheet: undefined, row });
    // A row naming its asset carries the descriptors a lot it opens is valued by.
    expect(entries.find((e) => e.assetId)?.asset).toMatchObject({ segment: expect.any(String), brand: expect.any(String), model: expect.any(String) });
    expect(withoutAsset(entries)).toEqual([
      { portfolio: 'Okafor', date: '2025-01-15', type: 'buy', assetId: 'SVC-WAT-ROLEX-126610LN-2021', quantity: 1, amount: 12500, currency: 'USD', notes: 'first watch', source: src(2) },
      // A 75 cl size: the quantity counts bottles of the wine whose case is the id without the size.
      { portfolio: 'Okafor', date: '2025-02-01', type: 'buy', assetId: expect.stringMatching(/^SVC-WIN-.*-2015-S75CL$/), quantity: 12, unit: 'bottle', stock: { id: entries[1]!.assetId!.replace(/-S75CL$/, ''), bottlesPerUnit: 1 }, amount: 48000, currency: 'EUR', source: src(3) },
      { portfolio: 'Okafor', date: '2025-03-10', type: 'sell', assetId: entries[1]!.assetId, quantity: 6, unit: 'bottle', stock: { id: entries[1]!.assetId!.replace(/-S75CL$/, ''), bottlesPerUnit: 1 }, amount: 30000, currency: 'EUR', notes: 'half the case', source: src(4) },
      { portfolio: 'Okafor', date: '2025-03-31', type: 'fee', amount: 250, currency: 'USD', notes: 'storage', source: src(5) },
      { portfolio: 'Okafor', date: '2025-04-30', type: 'income', amount: 120.5, currency: 'USD', source: src(6) },
      { portfolio: 'Lindqvist', date: '2025-05-02', type: 'transfer_in', assetId: 'SVC-WAT-PATEK-5711-2019', quantity: 1, amount: 95000, currency: 'CHF', notes: 'inherited', source: src(7) },
      { portfolio: 'Lindqvist', date: '2025-06-02', type: 'transfer_out', assetId: 'SVC-WAT-PATEK-5711-2019', quantity: 1, amount: 47500, currency: 'CHF', source: src(8) },
      { portfolio: 'Lindqvist', date: '2025-07-01', type: 'fee', assetId: 'SVC-WAT-PATEK-5711-2019', amount: 100, currency: 'CHF', notes: 'service', source: src(9) },
    ]);
  });

  it('a row\'s descriptors give the asset id the holdings reader gives the same cells (wine producer and vintage, art, a size)', async () => {
    const descriptors = [
      ['watches', 'Rolex', 'Submariner Date', '126610LN', '2021', ''],
      ['wine', 'Château Pétrus', 'Pomerol', '', '2010', '150cl'],
      ['art', 'Gerhard Richter', 'Abstraktes Bild', '', '1990', ''],
      ['sneakers', 'Nike', 'Air Jordan 1 Chicago', 'DZ5485-612', '2022', '10.5'],
      ['bags', 'Hermès', 'Birkin 30', '', '', ''],
    ];
    const holdings = write(
      'same-holdings.csv',
      ['segment,brand,model,reference,year,size,quantity,purchase_price,purchase_date', ...descriptors.map((d) => [...d, '1', '1000', '2024-01-01'].join(','))].join('\n'),
    );
    const ledger = write(
      'same-ledger.csv',
      ['segment,brand,model,reference,year,size,quantity,amount,currency,date,type', ...descriptors.map((d) => [...d, '1', '1000', 'USD', '2024-01-01', 'buy'].join(','))].join('\n'),
    );
    const fromHoldings = (await loadHoldings([holdings], rules)).portfolios[0]!.holdings.map((h) => h.assetId);
    const { entries, problems } = await loadLedger([ledger], rules);
    expect(problems).toEqual([]);
    expect(fromHoldings).toHaveLength(descriptors.length);
    expect(entries.map((e) => e.assetId)).toEqual(fromHoldings);
  });

  it('names the portfolio after the file without a portfolio column, and folds a name typed on two lines', async () => {
    const file = write('Tanaka Collection.csv', 'date,type,amount,currency,portfolio\n2025-01-01,fee,10,USD,\n2025-01-02,fee,10,USD,"Ng\nCollectibles"\n');
    const { entries } = await loadLedger([file], rules);
    expect(entries.map((e) => e.portfolio)).toEqual(['Tanaka Collection', 'Ng Collectibles']);
  });

  it('reads amounts by the holdings decimal-mark rules: declared, detected in the column, or refused as ambiguous', async () => {
    const file = write('marks.csv', 'date;type;amount;currency\n2025-01-01;fee;12.500;EUR\n');
    const ambiguous = await loadLedger([file], rules);
    expect(where(ambiguous.problems)).toEqual([[2, 'amount']]);
    expect(ambiguous.problems[0]!.reason).toMatch(/ambiguous.*--decimal-comma/);
    expect((await loadLedger([file], { ...rules, decimalMark: ',' })).entries.map((e) => e.amount)).toEqual([12500]);
    const detected = write('detected.csv', 'date;type;amount;currency\n2025-01-01;fee;12.500;EUR\n2025-01-02;fee;1.250,50;EUR\n');
    expect((await loadLedger([detected], rules)).entries.map((e) => e.amount)).toEqual([12500, 1250.5]);
  });

  it('a row without a currency is in the given one (the report\'s), else refused', async () => {
    const file = write('no-currency.csv', 'date,type,amount\n2025-01-01,fee,10\n');
    expect((await loadLedger([file], { ...rules, currency: 'GBP' })).entries[0]!.currency).toBe('GBP');
    const refused = await loadLedger([file], rules);
    expect(where(refused.problems)).toEqual([[2, 'currency']]);
    expect(refused.problems[0]!.reason).toMatch(/required.*ISO 4217/);
  });
});

describe('transactions files: xlsx and json', () => {
  it('xlsx: date and number cells, one portfolio per transactions sheet, other sheets skipped, rows numbered as on the sheet', async () => {
    const wb = new ExcelJS.Workbook();
    const a = wb.addWorksheet('Hartley Family');
    a.addRow(['Date', 'Transaction Type', 'Asset ID', 'Qty', 'Amount', 'Currency', 'Notes']);
    a.addRow([new Date(Date.UTC(2025, 0, 15)), 'Buy', 'SVC-WAT-ROLEX-126610LN-2021', 2, 25000, 'USD', 'two\nwatches']);
    a.addRow([]);
    a.addRow([new Date(Date.UTC(2025, 5, 1)), 'Sell', 'SVC-WAT-ROLEX-126610LN-2021', 1, { formula: '2*7000', result: 14000 }, 'USD', null]);
    const b = wb.addWorksheet('Hartley Foundation');
    b.addRow(['date', 'type', 'amount', 'currency']);
    b.addRow(['2025-02-28', 'Income', 300, 'GBP']);
    const notes = wb.addWorksheet('Read me');
    notes.addRow(['This workbook lists the family\'s transactions']);
    const file = join(dir, 'hartley.xlsx');
    await wb.xlsx.writeFile(file);
    const { entries, problems } = await loadLedger([file], rules);
    expect(problems).toEqual([]);
    expect(withoutAsset(entries)).toEqual([
      { portfolio: 'Hartley Family', date: '2025-01-15', type: 'buy', assetId: 'SVC-WAT-ROLEX-126610LN-2021', quantity: 2, amount: 25000, currency: 'USD', notes: 'two\nwatches', source: { file, sheet: 'Hartley Family', row: 2 } },
      { portfolio: 'Hartley Family', date: '2025-06-01', type: 'sell', assetId: 'SVC-WAT-ROLEX-126610LN-2021', quantity: 1, amount: 14000, currency: 'USD', source: { file, sheet: 'Hartley Family', row: 4 } },
      { portfolio: 'Hartley Foundation', date: '2025-02-28', type: 'income', amount: 300, currency: 'GBP', source: { file, sheet: 'Hartley Foundation', row: 2 } },
    ]);
  });

  it('xlsx with one transactions sheet: the file names the portfolio', async () => {
    const wb = new ExcelJS.Workbook();
    const s = wb.addWorksheet('Sheet1');
    s.addRow(['date', 'type', 'amount', 'currency']);
    s.addRow([new Date(Date.UTC(2025, 2, 3)), 'fee', 75, 'EUR']);
    const file = join(dir, 'Okafor Household.xlsx');
    await wb.xlsx.writeFile(file);
    const { entries } = await loadLedger([file], rules);
    expect(entries.map((e) => [e.portfolio, e.date, e.source.sheet, e.source.row])).toEqual([['Okafor Household', '2025-03-03', 'Sheet1', 2]]);
  });

  it('json: an array, {"transactions": [...]} and {"portfolios": {...}}, items numbered from 1', async () => {
    const item = { date: '2025-01-15', type: 'buy', segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: '126610LN', year: 2021, quantity: 1, amount: 12500, currency: 'USD' };
    const array = write('ng.json', JSON.stringify([item, { date: '2025-02-01', type: 'Transfer Out', asset_id: 'SVC-WAT-ROLEX-126610LN-2021', quantity: 1, amount: 13000, currency: 'USD' }]));
    const wrapped = write('wrapped.json', JSON.stringify({ portfolio: 'Ng Collectibles', transactions: [item] }));
    const map = write('map.json', JSON.stringify({ portfolios: { Tanaka: [item], Lindqvist: [{ date: '2025-03-01', type: 'fee', amount: 40, currency: 'USD' }] } }));
    const { entries, problems } = await loadLedger([array, wrapped, map], rules);
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.portfolio, e.type, e.assetId, e.source.row])).toEqual([
      ['ng', 'buy', 'SVC-WAT-ROLEX-126610LN-2021', 1],
      ['ng', 'transfer_out', 'SVC-WAT-ROLEX-126610LN-2021', 2],
      ['Ng Collectibles', 'buy', 'SVC-WAT-ROLEX-126610LN-2021', 1],
      ['Tanaka', 'buy', 'SVC-WAT-ROLEX-126610LN-2021', 1],
      ['Lindqvist', 'fee', undefined, 1],
    ]);
    const holdingsShaped = write('holdings-shaped.json', JSON.stringify({ holdings: [item] }));
    await expect(loadLedger([holdingsShaped], rules)).rejects.toThrow(/must hold an array of transactions, \{"transactions": \[\.\.\.\]\}/);
  });
});

describe('bad rows', () => {
  it('refuses each kind of bad row by row and field with what is allowed, and reads the rest', async () => {
    const file = write(
      'bad.csv',
      [
        'portfolio,date,type,asset_id,segment,brand,model,quantity,amount,currency,notes',
        'P,2025-01-01,buy,SVC-WAT-ROLEX-126610LN-2021,,,,1,100,USD,good', // 2
        'P,2025-01-02,purchase,SVC-WAT-ROLEX-126610LN-2021,,,,1,100,USD,', // 3 unknown type
        'P,,buy,SVC-WAT-ROLEX-126610LN-2021,,,,1,100,USD,', // 4 no date
        'P,31/01/2025,buy,SVC-WAT-ROLEX-126610LN-2021,,,,1,100,USD,', // 5 day-first date
        'P,2025-02-30,buy,SVC-WAT-ROLEX-126610LN-2021,,,,1,100,USD,', // 6 no such day
        'P,2025-01-03,buy,,,,,1,100,USD,', // 7 buy without asset
        'P,2025-01-04,sell,SVC-WAT-ROLEX-126610LN-2021,,,,,100,USD,', // 8 sell without quantity
        'P,2025-01-05,transfer_in,SVC-WAT-ROLEX-126610LN-2021,,,,0,100,USD,', // 9 zero quantity
        'P,2025-01-06,transfer_out,SVC-WAT-ROLEX-126610LN-2021,,,,-2,100,USD,', // 10 negative quantity
        'P,2025-01-07,buy,SVC-WAT-ROLEX-126610LN-2021,,,,two,100,USD,', // 11 quantity not a number
        'P,2025-01-08,buy,SVC-WAT-ROLEX-126610LN-2021,,,,1,,USD,', // 12 no amount
        'P,2025-01-09,sell,SVC-WAT-ROLEX-126610LN-2021,,,,1,-100,USD,', // 13 negative amount
        'P,2025-01-10,fee,,,,,,lots,USD,', // 14 amount not a number
        'P,2025-01-11,income,,,,,,10,US Dollars,', // 15 currency not ISO
        'P,2025-01-12,,,,,,,10,USD,', // 16 no type
        'P,2025-01-13,buy,ROLEX-SUB,,,,1,100,USD,', // 17 bad asset id
        'P,2025-01-14,buy,,watches,Rolex,,1,100,USD,', // 18 descriptors without model
        'P,2025-01-15,buy,,spaceships,Rolex,Sub,1,100,USD,', // 19 unknown segment
        'P,2025-01-16,fee,,,,,,5,USD,', // 20 good: portfolio-level fee
        'P,2025-01-17,income,,,,,abc,5,USD,', // 21 good: an income's quantity is not read
      ].join('\n'),
    );
    const { entries, problems } = await loadLedger([file], rules);
    expect(entries.map((e) => e.source.row)).toEqual([2, 20, 21]);
    expect(where(problems)).toEqual([
      [3, 'type'],
      [4, 'date'],
      [5, 'date'],
      [6, 'date'],
      [7, 'asset_id'],
      [8, 'quantity'],
      [9, 'quantity'],
      [10, 'quantity'],
      [11, 'quantity'],
      [12, 'amount'],
      [13, 'amount'],
      [14, 'amount'],
      [15, 'currency'],
      [16, 'type'],
      // A bad asset id names no asset: its descriptors are asked for, as in a holdings file.
      [17, 'asset_id'],
      [17, 'segment'],
      [17, 'brand'],
      [17, 'model'],
      [18, 'model'],
      [19, 'segment'],
    ]);
    const reason = (row: number) => problems.find((p) => p.source.row === row)!.reason;
    expect(reason(3)).toBe('type must be one of buy, sell, fee, income, transfer_in, transfer_out (case and spaces do not matter: "Transfer In" is transfer_in) (found "purchase")');
    expect(reason(4)).toBe('date is required, as YYYY-MM-DD');
    expect(reason(5)).toMatch(/date must be a date as YYYY-MM-DD: write 2025-01-31 \(found "31\/01\/2025"\)/);
    expect(reason(6)).toMatch(/a date that exists/);
    expect(reason(7)).toMatch(/a buy row needs its asset: an asset_id .* or the descriptors .*only fee and income may be on the portfolio as a whole/);
    expect(reason(8)).toMatch(/^quantity is required for a sell: a positive number up to 100000: whole items, or for wine and spirits whole bottles/);
    expect(reason(9)).toMatch(/^quantity must be a positive number .*\(found "0"\)/);
    expect(reason(10)).toMatch(/\(found "-2"\)/);
    expect(reason(12)).toMatch(/^amount is required: what was paid or received/);
    expect(reason(13)).toMatch(/^amount must be .*0 or more.*a sale's proceeds are positive.*\(found "-100"\)/);
    expect(reason(14)).toMatch(/\(found "lots"\)/);
    expect(reason(15)).toMatch(/ISO 4217.*\(found "US DOLLARS"\)/);
    expect(reason(16)).toMatch(/^type is required: one of buy, sell/);
    expect(reason(17)).toMatch(/asset_id must look like SVC-WAT-ROLEX/);
    expect(reason(19)).toMatch(/segment must be one of/);
    expect(problems.every((p) => p.portfolio === 'P' && p.source.file === file)).toBe(true);
    expect(describeLedgerProblem(problems[0]!)).toBe(`${file} row 3, type: ${reason(3)}`);
  });

  it('a bad row on a sheet is named by its sheet', async () => {
    const wb = new ExcelJS.Workbook();
    for (const name of ['March', 'April']) {
      const s = wb.addWorksheet(name);
      s.addRow(['date', 'type', 'amount', 'currency']);
      s.addRow(['2025-03-01', name === 'April' ? 'refund' : 'fee', 10, 'USD']);
    }
    const file = join(dir, 'sheets.xlsx');
    await wb.xlsx.writeFile(file);
    const { entries, problems } = await loadLedger([file], rules);
    expect(entries.map((e) => e.portfolio)).toEqual(['March']);
    expect(problems.map((p) => [p.portfolio, p.source.sheet, p.source.row, p.field])).toEqual([['April', 'April', 2, 'type']]);
    expect(describeLedgerProblem(problems[0]!)).toMatch(/sheets\.xlsx \(sheet April\) row 2, type:/);
  });
});

describe('types are forgiving in case and spacing, never in words', () => {
  it.each([
    ['buy', 'buy'],
    [' BUY ', 'buy'],
    ['Sell', 'sell'],
    ['Transfer In', 'transfer_in'],
    ['transfer-in', 'transfer_in'],
    ['TRANSFER_OUT', 'transfer_out'],
    ['TransferOut', 'transfer_out'],
    ['transfer  out', 'transfer_out'],
    ['Fee', 'fee'],
    ['INCOME', 'income'],
  ])('"%s" is %s', (text, type) => {
    expect(parseTransactionType(text)).toBe(type);
  });

  it.each(['purchase', 'sale', 'transfer', 'dividend', 'buys', ''])('"%s" is no type', (text) => {
    expect(parseTransactionType(text)).toBeUndefined();
  });
});

describe('rows after the as-of date', () => {
  it('are left out and counted, even when they would be refused (a later month-end reads them)', async () => {
    const file = write(
      'later.csv',
      ['date,type,amount,currency', '2026-03-31,fee,1,USD', '2026-04-01,fee,2,USD', '2026-12-31,fee,3,USD', '2027-01-01,refund,x,USD', '2026-03-30,fee,4,USD'].join('\n'),
    );
    const { entries, problems, afterAsOf } = await loadLedger([file], rules);
    expect(entries.map((e) => e.amount)).toEqual([1, 4]);
    expect(afterAsOf).toBe(3);
    expect(problems).toEqual([]);
    const later = await loadLedger([file], { asOf: '2027-01-31' });
    expect(later.afterAsOf).toBe(0);
    expect(where(later.problems)).toEqual([[5, 'type'], [5, 'amount']]);
  });
});

describe('a holdings file as a ledger', () => {
  it('each holding is a buy on its purchase date, of its quantity, for its purchase price, in its currency or the report\'s; source row kept', async () => {
    const file = write(
      'holdings.csv',
      [
        'Portfolio,Segment,Brand,Model,Reference,Year,Quantity,Purchase Price,Purchase Date,Currency,Notes',
        'Okafor,watches,Rolex,Datejust 41,126334,2019,1,9900,2022-11-16,USD,',
        'Okafor,wine,Petrus,Pomerol,,2010,6,18000.00,2021-05-01,,a case',
        'Tanaka,art,Banksy,Girl with Balloon,,2004,1,120000,2020-01-10,GBP,',
      ].join('\n'),
    );
    const { portfolios } = await loadHoldings([file], rules);
    const entries = holdingsAsLedger(portfolios, 'EUR');
    const ids = portfolios.flatMap((p) => p.holdings.map((h) => h.assetId));
    expect(withoutAsset(entries)).toEqual([
      { portfolio: 'Okafor', date: '2022-11-16', type: 'buy', assetId: ids[0], quantity: 1, amount: 9900, currency: 'USD', source: { file, sheet: undefined, row: 2 } },
      // A holding counts the service's unit: a wine without a size, cases (of 12 bottles, one stock with its bottles).
      { portfolio: 'Okafor', date: '2021-05-01', type: 'buy', assetId: ids[1], quantity: 6, unit: 'case', stock: { id: ids[1], bottlesPerUnit: 12 }, amount: 18000, currency: 'EUR', notes: 'a case', source: { file, sheet: undefined, row: 3 } },
      { portfolio: 'Tanaka', date: '2020-01-10', type: 'buy', assetId: ids[2], quantity: 1, amount: 120000, currency: 'GBP', source: { file, sheet: undefined, row: 4 } },
    ]);
  });
});

describe('files refused whole', () => {
  it('a close-miss header of a required column (Ammount) stops with "did you mean"', async () => {
    const file = write('ammount.csv', 'date,type,Ammount,currency\n2025-01-01,fee,10,USD\n');
    const err = await loadLedger([file], rules).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/has no amount column \(did you mean "Ammount" → amount\?\): every transaction needs it/);
  });

  it('a close-miss header of another column (Curency) stops too, with how to leave it out', async () => {
    const file = write('curency.csv', 'date,type,amount,Curency\n2025-01-01,fee,10,USD\n');
    await expect(loadLedger([file], rules)).rejects.toThrow(/"Curency" \(did you mean currency\?\).*--ignore-column "Curency"/);
    const { entries } = await loadLedger([file], { ...rules, currency: 'USD', ignoreColumns: ['Curency'] });
    expect(entries).toHaveLength(1);
  });

  it('a table without type, date or amount is refused naming the column and what was found', async () => {
    const noType = write('no-type.csv', 'date,Tpye,amount,currency\n2025-01-01,fee,10,USD\n');
    await expect(loadLedger([noType], rules)).rejects.toThrow(/has no type column \(did you mean "Tpye" → type\?\): a transactions file is recognised by it/);
    const noDate = write('no-date.csv', 'type,amount,currency\nfee,10,USD\n');
    await expect(loadLedger([noDate], rules)).rejects.toThrow(/no-date\.csv has no date column: every transaction needs it\. Columns found: type, amount, currency/);
  });

  it('a file that is not a table, or not there, is an InputError', async () => {
    const bad = write('bad.json', '{ not json');
    await expect(loadLedger([bad], rules)).rejects.toThrow(InputError);
    await expect(loadLedger([join(dir, 'missing.csv')], rules)).rejects.toThrow(/cannot read transactions file .*missing\.csv: no such file/);
    await expect(loadLedger([write('ledger.pdf', 'x')], rules)).rejects.toThrow(/unsupported file type/);
    await expect(loadLedger([], rules)).rejects.toThrow(/at least one transactions file/);
  });

  it('two headers for one column are refused', async () => {
    const file = write('dup.csv', 'date,type,amount,total,currency\n2025-01-01,fee,10,10,USD\n');
    await expect(loadLedger([file], rules)).rejects.toThrow(/\("amount"\) and D \("total"\) both mean amount/);
  });

  it('an unrelated column is left out with a warning', async () => {
    const file = write('colour.csv', 'date,type,amount,currency,Colour\n2025-01-01,fee,10,USD,red\n');
    const { entries, warnings } = await loadLedger([file], rules);
    expect(entries).toHaveLength(1);
    expect(warnings).toEqual([`${file}: ignored unknown column(s) Colour`]);
  });
});

describe('holdings files are unchanged', () => {
  it('a file is a transactions file by its type column; a holdings file (csv or json) is not', async () => {
    expect(await isTransactionsFile(write('t.csv', 'Date,Transaction Type,Amount\n'))).toBe(true);
    expect(await isTransactionsFile(write('h.csv', 'segment,brand,model,purchase_price,date\nwatches,Rolex,Sub,1,2024-01-01\n'))).toBe(false);
    expect(await isTransactionsFile(write('h.json', JSON.stringify({ holdings: [{ segment: 'watches' }] })))).toBe(false);
    expect(await isTransactionsFile(write('t.json', JSON.stringify({ transactions: [{ type: 'fee' }] })))).toBe(true);
  });

  it('"Date" is a holdings file\'s purchase_date and a transactions file\'s date; type and amount are a transactions file\'s only', async () => {
    expect(columnForHeader('Date')).toBe('purchase_date');
    expect(columnForHeader('Date', LEDGER_VOCABULARY)).toBe('date');
    expect(columnForHeader('Type')).toBeUndefined();
    expect(columnForHeader('Amount')).toBeUndefined();
    expect(columnForHeader('Transaction Type', LEDGER_VOCABULARY)).toBe('type');
    expect(columnForHeader('TransactionType', LEDGER_VOCABULARY)).toBe('type');
    expect(columnForHeader('Qty', LEDGER_VOCABULARY)).toBe('quantity');
    expect(columnForHeader('Purchase Price', LEDGER_VOCABULARY)).toBeUndefined();
    const holdings = write('with-type.csv', 'segment,brand,model,purchase_price,date,Type\nwatches,Rolex,Sub,1,2024-01-01,Diver\n');
    const { portfolios, warnings } = await loadHoldings([holdings], rules);
    expect(portfolios[0]!.holdings.map((h) => h.purchaseDate)).toEqual(['2024-01-01']);
    expect(warnings).toEqual([`${holdings}: ignored unknown column(s) Type`]);
  });
});
