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
  // The lot a holding is (issue 34): a sale in a transactions file may name it.
  'lot',
  // The language of the portfolio's client documents (issue 36): one per portfolio, on any of its rows.
  'language',
  // Cover (issue 37), per holding or lot: read apart from the rest (cover.ts), so a bad cell never refuses the holding.
  'insured_value',
  'insured_currency',
  'insurer',
  'policy',
  'renewal_date',
  'serial',
] as const;
/**
 * The columns only a transactions file has (issue 23): in a holdings file `date` still means
 * purchase_date. `unit` says what a wine or spirits row's quantity counts (case or bottle), issue 34.
 */
export const LEDGER_ONLY_COLUMNS = ['date', 'type', 'amount', 'unit'] as const;
/** Any column of a holdings or a transactions file; each kind of file reads its own (Vocabulary). */
export type Column = (typeof COLUMNS)[number] | (typeof LEDGER_ONLY_COLUMNS)[number];

/** Other names people give these columns, in normalised form. */
const ALIASES: Readonly<Record<string, Column>> = {
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
  lang: 'language',
  client_language: 'language',
  report_language: 'language',
  widthcm: 'width_cm',
  heightcm: 'height_cm',
  sum_insured: 'insured_value',
  insured_amount: 'insured_value',
  insurance_value: 'insured_value',
  agreed_value: 'insured_value',
  insured_ccy: 'insured_currency',
  insurance_currency: 'insured_currency',
  insured_value_currency: 'insured_currency',
  insurance_company: 'insurer',
  insurer_name: 'insurer',
  underwriter: 'insurer',
  policy_number: 'policy',
  policy_no: 'policy',
  policy_ref: 'policy',
  policy_id: 'policy',
  renewal: 'renewal_date',
  renewal_due: 'renewal_date',
  policy_renewal: 'renewal_date',
  renews: 'renewal_date',
  serial_number: 'serial',
  serial_no: 'serial',
  inventory_number: 'serial',
  inventory_no: 'serial',
};

/**
 * The columns a kind of file reads and the other names it knows them by. A holdings file reads
 * COLUMNS ("Date" is its purchase_date); a transactions file reads its own (LEDGER_VOCABULARY).
 */
export interface Vocabulary {
  /** What one row is, plural, for messages: "holdings", "transactions". */
  noun: string;
  columns: readonly Column[];
  aliases: Readonly<Record<string, Column>>;
  /** A table is of this kind when a header names one of these (a holdings table: segment or asset_id). */
  recognisedBy: readonly Column[];
}

export const HOLDINGS_VOCABULARY: Vocabulary = { noun: 'holdings', columns: COLUMNS, aliases: ALIASES, recognisedBy: ['segment', 'asset_id'] };

/**
 * A transactions file's columns: the asset's descriptors as in a holdings file (so a row gives the
 * same asset id), and date, type, amount instead of purchase_date and purchase_price. Columns that
 * describe an asset's state for its valuation (condition, box_papers, medium, size in cm) are not
 * read from a ledger and are left out with a warning, as any unread column.
 */
const LEDGER_COLUMNS: readonly Column[] = [
  'portfolio', 'asset_id', 'segment', 'brand', 'model', 'reference', 'year', 'size', 'quantity', 'currency', 'notes', 'lot',
  'producer', 'vintage', 'artist', 'title', 'language', ...LEDGER_ONLY_COLUMNS,
  // A lot's cover (issue 37), read on the row that opens it.
  'insured_value', 'insured_currency', 'insurer', 'policy', 'renewal_date', 'serial',
];
const LEDGER_ALIASES: Record<string, Column> = {
  ...Object.fromEntries(Object.entries(ALIASES).filter(([, c]) => LEDGER_COLUMNS.includes(c) && c !== 'purchase_date')),
  transaction_date: 'date',
  trade_date: 'date',
  txn_date: 'date',
  transaction_type: 'type',
  txn_type: 'type',
  transaction: 'type',
  kind: 'type',
  transaction_amount: 'amount',
  lot_name: 'lot',
  lot_id: 'lot',
  unit_of_quantity: 'unit',
  quantity_unit: 'unit',
  total: 'amount',
  consideration: 'amount',
};
// "TransactionType" as well as "Transaction Type".
for (const [alias, column] of Object.entries({ ...LEDGER_ALIASES })) LEDGER_ALIASES[alias.replace(/_/g, '')] ??= column;

export const LEDGER_VOCABULARY: Vocabulary = { noun: 'transactions', columns: LEDGER_COLUMNS, aliases: LEDGER_ALIASES, recognisedBy: ['type'] };

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
export function columnForHeader(header: string, vocabulary: Vocabulary = HOLDINGS_VOCABULARY): Column | undefined {
  const n = normaliseHeader(header);
  if ((vocabulary.columns as readonly string[]).includes(n)) return n as Column;
  return vocabulary.aliases[n] ?? vocabulary.aliases[n.replace(/_/g, '')];
}

/** Two headers that mean the same column ("brand" twice, or "Brand" and "Maker"): which value counts is unknowable. */
export interface DuplicateColumn {
  column: Column;
  headers: [string, string];
  /** 0-based positions in the header row. */
  positions: [number, number];
}

/** Maps a header row to columns; unknown headers are reported so a typo does not pass silently, duplicates so a value is not silently dropped. */
export function mapHeaders(
  headers: readonly string[],
  vocabulary: Vocabulary = HOLDINGS_VOCABULARY,
): { columns: (Column | undefined)[]; unknown: string[]; duplicates: DuplicateColumn[] } {
  const columns = headers.map((h) => (h.trim() === '' ? undefined : columnForHeader(h, vocabulary)));
  const unknown = headers.filter((h, i) => h.trim() !== '' && columns[i] === undefined);
  const duplicates: DuplicateColumn[] = [];
  columns.forEach((col, i) => {
    const first = col === undefined ? -1 : columns.indexOf(col);
    if (col !== undefined && first < i) duplicates.push({ column: col, headers: [headers[first]!, headers[i]!], positions: [first, i] });
  });
  return { columns, unknown, duplicates };
}

/** "A", "B", … "AA": a spreadsheet column's letters, for messages about header cells. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/**
 * The unknown header that most likely meant `column` ("Purchse Price" for purchase_price): the
 * nearest by edit distance to the column's name or one of its aliases, if near enough to be a typo.
 */
export function closestHeader(column: Column, headers: readonly string[], vocabulary: Vocabulary = HOLDINGS_VOCABULARY): string | undefined {
  const names = namesOf(column, vocabulary);
  let best: { header: string; distance: number } | undefined;
  for (const header of headers) {
    const h = squash(normaliseHeader(header));
    if (h === '') continue;
    for (const name of names) {
      const d = editDistance(h, name);
      if (d <= Math.max(2, Math.floor(name.length / 4)) && (!best || d < best.distance)) best = { header, distance: d };
    }
  }
  return best?.header;
}

const squash = (s: string) => s.replace(/_/g, '');

/** A column's name and its aliases, without underscores (the forms headers are compared with). */
const namesOf = (column: Column, vocabulary: Vocabulary): string[] => [
  ...new Set([column, ...Object.entries(vocabulary.aliases).filter(([, c]) => c === column).map(([a]) => a)].map(squash)),
];

/**
 * The column an unknown header was most likely meant to be ("Curency" → currency, "Quantiy" →
 * quantity, "Qtyy" → quantity through its alias qty), or undefined when it resembles none.
 * Stricter than closestHeader's hint, because a match here stops the run: a name of 5
 * letters or fewer ("id", "qty", "price") takes one slip only, so a "No" or "Place" column is not taken for one.
 */
export function nearestColumn(header: string, vocabulary: Vocabulary = HOLDINGS_VOCABULARY): Column | undefined {
  const h = squash(normaliseHeader(header));
  if (h === '') return undefined;
  let best: { column: Column; distance: number } | undefined;
  for (const column of vocabulary.columns) {
    for (const name of namesOf(column, vocabulary)) {
      const d = editDistance(h, name);
      const allowed = name.length <= 5 ? 1 : Math.max(2, Math.floor(name.length / 4));
      if (d <= allowed && (!best || d < best.distance)) best = { column, distance: d };
    }
  }
  return best?.column;
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment); brand keys' "did you mean" uses it too. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
