import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEGMENT_IDS } from '../../src/wire';
import { columnForHeader } from '../../src/holdings/columns';
import { loadHoldings } from '../../src/holdings/load';
import { reportCurrency, requireCurrency } from '../../src/holdings/currency';
import { InputError } from '../../src/holdings/types';
import { ROOT, tempDir } from './helpers';

const rules = { asOf: '2026-10-31' };
let dir: string;
beforeAll(() => {
  dir = tempDir('svc-report-input-');
});

describe('holdings input', () => {
  it('matches headers forgivingly', () => {
    expect(columnForHeader('Purchase Price')).toBe('purchase_price');
    expect(columnForHeader(' PURCHASE-PRICE ')).toBe('purchase_price');
    expect(columnForHeader('purchase_price')).toBe('purchase_price');
    expect(columnForHeader('Box & Papers')).toBe('box_papers');
    expect(columnForHeader('Width (cm)')).toBe('width_cm');
    expect(columnForHeader('Asset ID')).toBe('asset_id');
    expect(columnForHeader('Qty')).toBe('quantity');
    expect(columnForHeader('colour')).toBeUndefined();
  });

  it('reads the examples: csv split by a portfolio column, one xlsx sheet per portfolio, json; all ten segments, a few hundred holdings, no bad rows', async () => {
    const files = ['meridian-wealth-clients.csv', 'hartley-family-office.xlsx', 'ng-collectibles.json'].map((f) => join(ROOT, 'examples', f));
    const { portfolios, warnings } = await loadHoldings(files, rules);
    expect(portfolios.map((p) => p.name)).toEqual(['Okafor Household', 'Lindqvist Trust', 'Tanaka Collection', 'Hartley Family', 'Hartley Foundation', 'Ng Collectibles']);
    expect(warnings).toEqual([]);
    expect(portfolios.flatMap((p) => p.problems)).toEqual([]);
    const holdings = portfolios.flatMap((p) => p.holdings);
    expect(holdings.length).toBeGreaterThanOrEqual(250);
    expect(new Set(holdings.map((h) => h.segment))).toEqual(new Set(SEGMENT_IDS));
    // xlsx: real date cells, and rows numbered as on the sheet (header is row 1)
    const hartley = portfolios.find((p) => p.name === 'Hartley Family')!;
    expect(hartley.holdings[0]!.source).toEqual({ file: files[1], sheet: 'Hartley Family', row: 2 });
    expect(hartley.holdings[0]!.purchaseDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('reports each bad row with its spreadsheet row, field and what is allowed, and keeps the good rows', async () => {
    const { portfolios } = await loadHoldings([join(ROOT, 'examples/with-errors.csv')], rules);
    const [p] = portfolios;
    expect(p!.holdings.map((h) => h.source.row)).toEqual([2, 8]);
    const byRow = Object.fromEntries(p!.problems.map((x) => [x.row, x]));
    expect(byRow[3]).toMatchObject({ field: 'segment', value: 'spaceships', reason: expect.stringContaining('watches, art, wine') });
    expect(byRow[4]).toMatchObject({ field: 'brand', reason: 'brand is required' });
    expect(byRow[5]).toMatchObject({ field: 'purchase_price', reason: expect.stringMatching(/must be a number/) });
    expect(byRow[6]).toMatchObject({ field: 'purchase_date', reason: expect.stringMatching(/date that exists/) });
    expect(byRow[7]).toMatchObject({ field: 'quantity', reason: expect.stringMatching(/whole number from 1/) });
  });

  it('reads segment aliases, wine and art descriptors, an asset_id, and a JSON portfolios map', async () => {
    const file = join(dir, 'mixed.json');
    writeFileSync(
      file,
      JSON.stringify({
        portfolios: {
          Cellar: [{ Segment: 'Fine Wines', Producer: 'Château Margaux', model: 'Margaux', Vintage: 2015, Quantity: '2', 'Purchase Price': '$18,400', 'Purchase Date': '2019-06-01' }],
          Gallery: [
            { segment: 'ART', artist: 'Banksy', title: 'Girl with Balloon', year: 2004, medium: 'screenprint', size_cm: { width: 50, height: 70 }, purchase_price: 90000, purchase_date: '2017-03-01' },
            { asset_id: 'SVC-WAT-ROLEX-126610LN-2021', purchase_price: 13000, purchase_date: '2022-01-01' },
          ],
        },
      }),
    );
    const { portfolios } = await loadHoldings([file], rules);
    const [cellar, gallery] = portfolios;
    expect(cellar!.holdings[0]).toMatchObject({ segment: 'wine', brand: 'Château Margaux', model: 'Margaux', year: 2015, quantity: 2, purchasePrice: 18400 });
    expect(gallery!.holdings[0]).toMatchObject({ segment: 'art', brand: 'Banksy', model: 'Girl with Balloon', sizeCm: { width: 50, height: 70 }, source: { row: 1 } });
    expect(gallery!.holdings[1]).toMatchObject({ segment: 'watches', assetId: 'SVC-WAT-ROLEX-126610LN-2021', year: 2021, reference: '126610LN' });
  });

  it('numbers xlsx rows as the sheet shows them, even below a blank top row', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Clients');
    ws.getRow(3).values = ['Segment', 'Brand', 'Model', 'Purchase Price', 'Purchase Date'];
    ws.getRow(4).values = ['watches', 'Rolex', 'Submariner Date', 12000, new Date(Date.UTC(2020, 0, 2))];
    ws.getRow(6).values = ['watches', 'Omega', 'Speedmaster', 'cheap', new Date(Date.UTC(2020, 0, 2))];
    const file = join(dir, 'offset.xlsx');
    await wb.xlsx.writeFile(file);
    const { portfolios } = await loadHoldings([file], rules);
    expect(portfolios[0]!.name).toBe('offset');
    expect(portfolios[0]!.holdings[0]!.source.row).toBe(4);
    expect(portfolios[0]!.holdings[0]!.purchaseDate).toBe('2020-01-02');
    expect(portfolios[0]!.problems).toEqual([expect.objectContaining({ row: 6, field: 'purchase_price', sheet: 'Clients' })]);
  });

  it('refuses a purchase after the report date and names unknown columns', async () => {
    const file = join(dir, 'future.csv');
    writeFileSync(file, 'segment,brand,model,purchase_price,purchase_date,colour\nwatches,Rolex,Daytona,30000,2027-01-01,black\nwatches,Rolex,Daytona,30000,2020-01-01,black\n');
    const { portfolios, warnings } = await loadHoldings([file], rules);
    expect(portfolios[0]!.problems[0]).toMatchObject({ row: 2, field: 'purchase_date', reason: 'purchase_date must not be after the report date 2026-10-31' });
    expect(warnings).toEqual([`${file}: ignored unknown column(s) colour`]);
  });

  it('takes the holdings\' currency when they agree, and refuses a row in another currency than the report\'s', async () => {
    const file = join(dir, 'gbp.csv');
    writeFileSync(file, 'segment,brand,model,purchase_price,purchase_date,currency\nwatches,Rolex,Daytona,30000,2020-01-01,GBP\nwatches,Omega,Speedmaster,5000,2020-01-01,gbp\nwatches,Tudor,Black Bay,3000,2020-01-01,\n');
    const { portfolios } = await loadHoldings([file], rules);
    expect(reportCurrency(portfolios, undefined)).toBe('GBP');
    requireCurrency(portfolios, 'USD');
    expect(portfolios[0]!.holdings.map((h) => h.brand)).toEqual(['Tudor']);
    expect(portfolios[0]!.problems.map((p) => [p.row, p.field])).toEqual([
      [2, 'currency'],
      [3, 'currency'],
    ]);
    expect(portfolios[0]!.problems[0]!.reason).toMatch(/differs from the report currency USD: .* --currency GBP/);
    // A file left with no holding at all is refused rather than reported as zeros.
    const allGbp = join(dir, 'all-gbp.csv');
    writeFileSync(allGbp, 'segment,brand,model,purchase_price,purchase_date,currency\nwatches,Rolex,Daytona,30000,2020-01-01,GBP\n');
    const only = await loadHoldings([allGbp], rules);
    expect(() => requireCurrency(only.portfolios, 'USD')).toThrow(/every holding in .*all-gbp\.csv is in another currency .* --currency GBP/);
  });

  it('a portfolio of a split file whose every row is bad is set aside, named with its rows; the others go on', async () => {
    const file = join(dir, 'split.csv');
    writeFileSync(file, 'portfolio,segment,brand,model,purchase_price,purchase_date\nGood Client,watches,Rolex,Daytona,30000,2020-01-01\nBad Client,watches,Rolex,Daytona,lots,2020-01-01\n');
    const loaded = await loadHoldings([file], rules);
    expect(loaded.portfolios.map((p) => p.name)).toEqual(['Good Client']);
    expect(loaded.unreadable).toHaveLength(1);
    expect(loaded.unreadable[0]!.message).toMatch(/no row of portfolio "Bad Client" in .*split\.csv could be read, so no report is written for it: row 3, purchase_price/);
    // Nothing readable at all: refused before any call.
    const bad = join(dir, 'split-all-bad.csv');
    writeFileSync(bad, 'portfolio,segment,brand,model,purchase_price,purchase_date\nBad Client,watches,Rolex,Daytona,lots,2020-01-01\n');
    await expect(loadHoldings([bad], rules)).rejects.toThrow(/no row of .*split-all-bad\.csv could be read/);
  });

  it('throws InputError for unreadable files', async () => {
    await expect(loadHoldings([join(dir, 'missing.csv')], rules)).rejects.toThrow(InputError);
    const txt = join(dir, 'notes.docx');
    writeFileSync(txt, 'x');
    await expect(loadHoldings([txt], rules)).rejects.toThrow(/unsupported file type '.docx'/);
    const fake = join(dir, 'fake.xlsx');
    writeFileSync(fake, 'not a zip');
    await expect(loadHoldings([fake], rules)).rejects.toThrow(/not a readable Excel/);
  });
});
