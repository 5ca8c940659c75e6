/**
 * Writes the example holdings files (committed; rerun with `npx tsx examples/generate.ts`).
 * Deterministic: a seeded generator picks assets from examples/catalogue.ts, so the files
 * only change when this script or the catalogue does. One-of-a-kind assets (properties, one-off
 * artworks, cars) are held at most once across all the files.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { CATALOGUE, isUnique, type CatalogueItem } from './catalogue';

const DIR = dirname(fileURLToPath(import.meta.url));

/** mulberry32: small, seeded, good enough for picking examples. */
function prng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Row {
  segment: string;
  brand: string;
  model: string;
  reference: string;
  year: number | '';
  condition: string;
  box_papers: string;
  size: string;
  quantity: number;
  purchase_price: number;
  purchase_date: string;
  currency: string;
  notes: string;
  medium: string;
  width_cm: number | '';
  height_cm: number | '';
}

const CONDITIONS = ['excellent', 'very_good', 'very_good', 'good', 'fair'];
const NOTES = ['', '', '', 'Bought at auction', 'Private sale', 'Insured separately', 'From estate', 'Dealer purchase', 'Serviced 2024'];

/** One-of-a-kind assets already placed in a portfolio: shared by every file the script writes. */
const placed = new Set<CatalogueItem>();
/** At most this many one-of-a-kind assets of a segment in one portfolio, so every portfolio gets some. */
const UNIQUE_PER_PORTFOLIO = 3;

/** The items a portfolio can still take in a segment: editions always, one-of-a-kind ones while unplaced and under the cap. */
function available(seg: string, held: Map<string, number>): CatalogueItem[] {
  const room = (held.get(seg) ?? 0) < UNIQUE_PER_PORTFOLIO;
  return CATALOGUE.filter((c) => c.segment === seg && (!isUnique(c) || (room && !placed.has(c))));
}

function makeRows(seed: number, count: number, segments: string[], currency: string): Row[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const uniqueHeld = new Map<string, number>();
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    // Walk the segments in turn so each portfolio holds all of its segments; a segment with nothing left passes its turn on.
    let k = i;
    while (available(segments[k % segments.length]!, uniqueHeld).length === 0) k++;
    const seg = segments[k % segments.length]!;
    const item: CatalogueItem = pick(available(seg, uniqueHeld));
    if (isUnique(item)) {
      placed.add(item);
      uniqueHeld.set(seg, (uniqueHeld.get(seg) ?? 0) + 1);
    }
    const year = item.years ? item.years[0] + Math.floor(rand() * (item.years[1] - item.years[0] + 1)) : '';
    const earliest = Math.max(2014, typeof year === 'number' ? year : 2014);
    const buyYear = earliest + Math.floor(rand() * (2025 - earliest + 1));
    const month = 1 + Math.floor(rand() * 12);
    const day = 1 + Math.floor(rand() * 28);
    const quantity = item.units ? pick(item.units) : 1;
    // Older purchases were cheaper: about 6 % a year, with noise.
    const age = 2026 - buyYear;
    const unit = item.price * Math.pow(0.94, age) * (0.85 + rand() * 0.3);
    const round = unit * quantity > 100_000 ? 1000 : 50;
    rows.push({
      segment: seg,
      brand: item.brand,
      model: item.model,
      reference: item.reference ?? '',
      year,
      condition: seg === 'real_estate' ? '' : pick(CONDITIONS),
      box_papers: ['watches', 'bags', 'jewellery', 'sneakers'].includes(seg) ? (rand() < 0.7 ? 'yes' : 'no') : '',
      size: item.sizes ? pick(item.sizes) : '',
      quantity,
      purchase_price: Math.round((unit * quantity) / round) * round,
      purchase_date: `${buyYear}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      currency,
      notes: seg === 'automobiles' ? `Chassis ${chassisNumber(rand)}` : pick(NOTES),
      medium: item.medium ?? '',
      width_cm: item.sizeCm?.[0] ?? '',
      height_cm: item.sizeCm?.[1] ?? '',
    });
  }
  return rows;
}

/** A plausible chassis number: the car is one car, not the model. */
function chassisNumber(rand: () => number): string {
  return String(10_000 + Math.floor(rand() * 89_999));
}

const csvCell = (v: unknown) => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * Holdings the demo's transactions (examples/demo-transactions.csv) sell by name (issue 34): a
 * portfolio holding one asset twice at two costs names the lot it sells, so the sale's realised
 * gain is that lot's, not the first bought. Each names exactly one generated row, by portfolio,
 * model and price; a row not found stops the script rather than leave the demo's sale unnamed.
 */
const NAMED_LOTS: readonly { portfolio: string; model: string; purchase_price: number; lot: string }[] = [
  // Tanaka's two LeBron rookie cards (16,700 and 19,950): the demo sells the dearer one, below cost.
  { portfolio: 'Tanaka Collection', model: 'LeBron James Chrome #111 Rookie PSA 10', purchase_price: 19_950, lot: 'PSA cert 64831905' },
];

function lotOf(portfolio: string, rows: readonly Row[]): Map<Row, string> {
  const lots = new Map<Row, string>();
  for (const named of NAMED_LOTS.filter((n) => n.portfolio === portfolio)) {
    const found = rows.filter((r) => r.model === named.model && r.purchase_price === named.purchase_price);
    if (found.length !== 1) throw new Error(`${portfolio}: the lot "${named.lot}" should name one row of ${named.model} at ${named.purchase_price}, found ${found.length}`);
    lots.set(found[0]!, named.lot);
  }
  return lots;
}

/** CSV with a Portfolio column splitting three clients, the human-typed headers people use, and a Lot column naming the lots the demo sells by name. */
async function writeCsvExample() {
  const headers = ['Portfolio', 'Segment', 'Brand', 'Model', 'Reference', 'Year', 'Condition', 'Box & Papers', 'Size', 'Quantity', 'Purchase Price', 'Purchase Date', 'Currency', 'Notes', 'Lot'];
  const clients: [string, number, string[]][] = [
    ['Okafor Household', 60, ['watches', 'jewellery', 'bags', 'automobiles', 'art']],
    ['Lindqvist Trust', 50, ['wine', 'spirits', 'art', 'watches', 'real_estate']],
    ['Tanaka Collection', 40, ['sneakers', 'cards', 'watches', 'spirits']],
  ];
  const lines = [headers.join(',')];
  clients.forEach(([name, count, segments], k) => {
    const rows = makeRows(100 + k, count, segments, 'USD');
    const lots = lotOf(name, rows);
    for (const r of rows) {
      lines.push(
        [name, r.segment, r.brand, r.model, r.reference, r.year, r.condition, r.box_papers, r.size, r.quantity, r.purchase_price, r.purchase_date, r.currency, r.notes, lots.get(r) ?? '']
          .map(csvCell)
          .join(','),
      );
    }
  });
  await writeFile(join(DIR, 'meridian-wealth-clients.csv'), lines.join('\n') + '\n');
}

/** A workbook with one sheet per portfolio, real date cells and a currency number format. */
async function writeXlsxExample() {
  const wb = new ExcelJS.Workbook();
  const sheets: [string, number, string[]][] = [
    ['Hartley Family', 70, ['watches', 'art', 'wine', 'automobiles', 'jewellery', 'bags']],
    ['Hartley Foundation', 30, ['art', 'real_estate', 'spirits', 'wine']],
  ];
  sheets.forEach(([name, count, segments], k) => {
    const ws = wb.addWorksheet(name);
    ws.addRow(['Segment', 'Brand', 'Model', 'Reference', 'Year', 'Condition', 'Box Papers', 'Quantity', 'Purchase Price', 'Purchase Date', 'Currency', 'Medium', 'Width (cm)', 'Height (cm)', 'Notes']);
    ws.getRow(1).font = { bold: true };
    for (const r of makeRows(200 + k, count, segments, 'USD')) {
      const [y, m, d] = r.purchase_date.split('-').map(Number) as [number, number, number];
      ws.addRow([r.segment, r.brand, r.model, r.reference, r.year, r.condition, r.box_papers, r.quantity, r.purchase_price, new Date(Date.UTC(y, m - 1, d)), r.currency, r.medium, r.width_cm, r.height_cm, r.notes]);
    }
    ws.getColumn(9).numFmt = '#,##0.00';
    ws.getColumn(10).numFmt = 'yyyy-mm-dd';
    ws.columns.forEach((c) => (c.width = 18));
  });
  const notes = wb.addWorksheet('Read me');
  notes.addRow(['One sheet per portfolio; this sheet has no holdings and is skipped.']);
  await wb.xlsx.writeFile(join(DIR, 'hartley-family-office.xlsx'));
}

/** JSON with the portfolio named inside the file. */
async function writeJsonExample() {
  const holdings = makeRows(300, 50, ['sneakers', 'cards', 'bags', 'spirits', 'real_estate'], 'USD').map((r) =>
    Object.fromEntries(Object.entries(r).filter(([, v]) => v !== '')),
  );
  await writeFile(join(DIR, 'ng-collectibles.json'), JSON.stringify({ portfolio: 'Ng Collectibles', holdings }, null, 2) + '\n');
}

/** Small file with deliberate mistakes, to show how bad rows are reported. */
async function writeBadRowsExample() {
  const text = `segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency,notes
watches,Rolex,Submariner Date,126610LN,2021,excellent,1,13200,2022-03-14,USD,good row
spaceships,Tesla,Roadster,,2018,good,1,100000,2019-01-01,USD,unknown segment
watches,,Nautilus,5711/1A-010,2019,very_good,1,98000,2020-06-01,USD,missing brand
art,Banksy,Girl with Balloon,,2004,good,1,twelve thousand,2018-05-01,USD,price is not a number
wine,Pétrus,Pomerol,,2010,excellent,6,21000,2021-02-30,USD,impossible date
spirits,The Macallan,25 Year Old Sherry Oak,,2020,excellent,-2,5400,2021-11-11,USD,negative quantity
bags,Hermès,Kelly 28 Sellier Epsom,KELLY28-EPSOM,2021,excellent,1,17800,2021-09-09,USD,good row
`;
  await writeFile(join(DIR, 'with-errors.csv'), text);
}

// One after the other: which file gets a one-of-a-kind asset depends on the order.
await writeCsvExample();
await writeXlsxExample();
await writeJsonExample();
await writeBadRowsExample();
console.error('wrote examples/meridian-wealth-clients.csv, hartley-family-office.xlsx, ng-collectibles.json, with-errors.csv');
