/** The columns a holdings file may carry (docs/report-job.md). */
export const COLUMNS = [
  'portfolio',
  'asset_id',
  'segment',
  'brand',
  'model',
  'reference',
  'year',
  'condition',
  'box_papers',
  'size',
  'quantity',
  'purchase_price',
  'purchase_date',
  'currency',
  'notes',
  'producer',
  'vintage',
  'artist',
  'title',
  'medium',
  'width_cm',
  'height_cm',
] as const;
export type Column = (typeof COLUMNS)[number];

/** Other names people give these columns, in normalised form. */
const ALIASES: Record<string, Column> = {
  asset: 'asset_id',
  assetid: 'asset_id',
  id: 'asset_id',
  category: 'segment',
  asset_class: 'segment',
  make: 'brand',
  maker: 'brand',
  manufacturer: 'brand',
  house: 'brand',
  ref: 'reference',
  ref_no: 'reference',
  reference_number: 'reference',
  model_year: 'year',
  box_and_papers: 'box_papers',
  box_papers_: 'box_papers',
  boxpapers: 'box_papers',
  full_set: 'box_papers',
  qty: 'quantity',
  units: 'quantity',
  price: 'purchase_price',
  cost: 'purchase_price',
  purchaseprice: 'purchase_price',
  purchase_cost: 'purchase_price',
  date: 'purchase_date',
  purchased: 'purchase_date',
  purchasedate: 'purchase_date',
  acquired: 'purchase_date',
  acquisition_date: 'purchase_date',
  ccy: 'currency',
  note: 'notes',
  comment: 'notes',
  comments: 'notes',
  width: 'width_cm',
  height: 'height_cm',
  widthcm: 'width_cm',
  heightcm: 'height_cm',
};

/** "Purchase Price", "purchase-price", " PURCHASE_PRICE " all become "purchase_price". */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/\(.*?\)/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The column a header stands for, or undefined for a column we do not use. */
export function columnForHeader(header: string): Column | undefined {
  const n = normaliseHeader(header);
  if ((COLUMNS as readonly string[]).includes(n)) return n as Column;
  return ALIASES[n] ?? ALIASES[n.replace(/_/g, '')];
}

/** Maps a header row to columns; unknown headers are reported so a typo does not pass silently. */
export function mapHeaders(headers: readonly string[]): { columns: (Column | undefined)[]; unknown: string[] } {
  const columns = headers.map((h) => (h.trim() === '' ? undefined : columnForHeader(h)));
  const unknown = headers.filter((h, i) => h.trim() !== '' && columns[i] === undefined);
  return { columns, unknown };
}
