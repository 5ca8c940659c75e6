import {
  CONDITIONS,
  SEGMENT_IDS,
  formatAssetId,
  isRealDate,
  parseAssetId,
  parseSegment,
  type SegmentId,
} from '../wire';
import { isCurrencyCode } from '../fx/codes';
import { detectMark, type DecimalConvention, type DecimalMark } from './amounts';
import { notADay, cellText, readBoolean, readDateText, readInteger, readNumber, type Read } from './cells';
import type { Holding, RawRecord, RowProblem } from './types';
import { rowReader, type RowReader } from './row-reader';
import { aboutField, rowReason } from './row-reasons';
import { readCover } from './cover';

export interface HoldingRules {
  /** Purchase dates after this day (YYYY-MM-DD) are refused. */
  asOf: string;
  /** Each number column's decimal mark, when declared or detected (decimalMarks); else ambiguous amounts are refused. */
  decimalMarks?: Partial<Record<NumberColumn, DecimalConvention>>;
}

/** The columns read as numbers: their text amounts follow the file's decimal convention. */
export const NUMBER_COLUMNS = ['purchase_price', 'quantity', 'year', 'vintage', 'width_cm', 'height_cm', 'insured_value'] as const;
export type NumberColumn = (typeof NUMBER_COLUMNS)[number];

/**
 * The decimal mark of each number column of a table: the declared one (--decimal-comma), else the
 * one its self-explaining amounts agree on ("12,500.00" and "1,250" in one column: a decimal point).
 */
export function decimalMarks(records: readonly RawRecord[], declared?: DecimalMark): Partial<Record<NumberColumn, DecimalConvention>> {
  return columnMarks(records, NUMBER_COLUMNS, declared);
}

/** decimalMarks for any number columns (a transactions file's amount, quantity, year, vintage). */
export function columnMarks<C extends string>(records: readonly RawRecord[], columns: readonly C[], declared?: DecimalMark): Partial<Record<C, DecimalConvention>> {
  const marks: Partial<Record<C, DecimalConvention>> = {};
  for (const column of columns) {
    const mark = declared ?? detectMark(textsOf(records, column));
    if (mark) marks[column] = { mark, declared: declared !== undefined };
  }
  return marks;
}

function* textsOf(records: readonly RawRecord[], column: string): Iterable<string> {
  for (const r of records) {
    const v = r.values[column];
    // Only an amount with a '.' or ',' can show a convention.
    if (typeof v === 'string' && (v.includes('.') || v.includes(','))) yield v;
  }
}

type Condition = (typeof CONDITIONS)[number];

export { rowReader, type RowReader };

/** What names a row's asset: a known asset id, or the descriptors it encodes (each read, or refused by field). */
export interface Descriptors {
  /** The asset_id cell, when it parses as one. */
  assetId?: string;
  segment?: SegmentId;
  brand?: string;
  model?: string;
  reference?: string;
  year?: number;
}

/**
 * Reads the asset_id and the descriptors that make an asset id (segment, maker, model or title,
 * reference, year or vintage), as a holdings file has them: a holdings row and a transactions row
 * with the same cells name the same asset.
 */
export function readDescriptors(record: RawRecord, r: RowReader, asOf: string, mark: (column: 'year' | 'vintage') => DecimalConvention | undefined): Descriptors {
  const v = record.values;
  const { problem, refused, text, check } = r;
  // A known asset id stands in for the descriptors it encodes.
  const assetIdText = text('asset_id', 120);
  const idParts = assetIdText !== undefined ? parseAssetId(assetIdText.toUpperCase()) : undefined;
  if (assetIdText !== undefined && !idParts) {
    problem('asset_id', rowReason('holdings.asset_id_form', { field: 'asset_id' }), assetIdText);
  }

  const segmentText = cellText(v.segment);
  let segment: SegmentId | undefined = idParts?.segment;
  if (segmentText !== undefined) {
    segment = parseSegment(segmentText);
    if (!segment) problem('segment', rowReason('holdings.one_of', { field: 'segment', allowed: SEGMENT_IDS.join(', ') }), segmentText);
  } else if (!idParts) {
    problem('segment', rowReason('holdings.required_one_of', { field: 'segment', allowed: SEGMENT_IDS.join(', ') }));
  }

  const brand = text('brand', 100) ?? text('producer', 100) ?? text('artist', 100) ?? idParts?.brand;
  if (!brand && !refused('brand', 'producer', 'artist')) problem('brand', segment === 'wine' || segment === 'art' ? rowReason('holdings.required_or', { field: segment === 'wine' ? 'producer' : 'artist', other: 'brand' }) : rowReason('holdings.required', { field: 'brand' }));
  const reference = text('reference', 64) ?? (cellText(v.model) === undefined && cellText(v.title) === undefined ? idParts?.ref : undefined);
  const model = text('model', 200) ?? text('title', 200) ?? reference;
  if (!model && !refused('model', 'title', 'reference')) problem('model', segment === 'art' ? rowReason('holdings.required_or', { field: 'title', other: 'model' }) : rowReason('holdings.required', { field: 'model' }));

  const yearField = cellText(v.year) !== undefined ? 'year' : 'vintage';
  const year = check(yearField, withRange(readInteger(v[yearField], mark(yearField)), 1600, Number(asOf.slice(0, 4)) + 1), rowReason('holdings.year_range', { field: yearField, max: String(Number(asOf.slice(0, 4)) + 1) })) ?? idParts?.year;
  return { assetId: idParts ? assetIdText!.toUpperCase() : undefined, segment, brand, model, reference, year };
}

/** The asset id of read descriptors: the file's own, else the one they make (formatAssetId), so it keys checkpoints, month-on-month and ledgers. */
export function assetIdOf(d: Descriptors, size: string | undefined): string | undefined {
  if (d.assetId) return d.assetId;
  if (!d.segment || !d.brand || !d.model) return undefined;
  return formatAssetId({ segment: d.segment, brand: d.brand, model: d.model, reference: d.reference, year: d.year, size });
}

/**
 * Validates one record: a holding, or every problem found in it (each names the field and what is
 * allowed). A bad cover cell does not refuse the holding: it is one of coverProblems, and the
 * holding is read without it.
 */
export function toHolding(record: RawRecord, portfolio: string, rules: HoldingRules): { holding: Holding; coverProblems?: RowProblem[] } | { problems: RowProblem[] } {
  const v = record.values;
  const reader = rowReader(record, portfolio);
  const { problems, problem, text, check } = reader;

  const mark = (column: NumberColumn) => rules.decimalMarks?.[column];
  const descriptors = readDescriptors(record, reader, rules.asOf, mark);
  const { segment, brand, model, reference, year } = descriptors;

  const conditionText = cellText(v.condition);
  let condition: Condition | undefined;
  if (conditionText !== undefined) {
    const c = conditionText.toLowerCase().replace(/[\s-]+/g, '_');
    if ((CONDITIONS as readonly string[]).includes(c)) condition = c as Condition;
    else problem('condition', rowReason('holdings.one_of', { field: 'condition', allowed: CONDITIONS.join(', ') }), conditionText);
  }

  const boxPapers = check('box_papers', readBoolean(v.box_papers), rowReason('holdings.yes_no', { field: 'box_papers' }));
  const size = text('size', 32);
  const quantity = check('quantity', withRange(readInteger(v.quantity, mark('quantity')), 1, 100_000), rowReason('holdings.quantity_range', { field: 'quantity' })) ?? 1;
  if (cellText(v.purchase_price) === undefined) problem('purchase_price', rowReason('holdings.price_required', { field: 'purchase_price' }));
  const purchasePrice = check('purchase_price', withRange(readNumber(v.purchase_price, mark('purchase_price')), 0, Number.MAX_SAFE_INTEGER), rowReason('holdings.price_number', { field: 'purchase_price' }));

  let purchaseDate: string | undefined;
  const date = readDateText(v.purchase_date);
  if (!date) problem('purchase_date', rowReason('holdings.date_required', { field: 'purchase_date' }));
  else if ('error' in date) problem('purchase_date', date.reason ? aboutField(date.reason, 'purchase_date') : rowReason('holdings.date_form', { field: 'purchase_date' }), v.purchase_date);
  else {
    if (!isRealDate(date.value)) problem('purchase_date', notADay('purchase_date', date.value), date.value);
    else if (date.value > rules.asOf) problem('purchase_date', rowReason('holdings.date_after', { field: 'purchase_date', date: rules.asOf }), date.value);
    else purchaseDate = date.value;
  }

  const currencyText = cellText(v.currency)?.toUpperCase();
  let currency: string | undefined;
  if (currencyText !== undefined) {
    if (isCurrencyCode(currencyText)) currency = currencyText;
    else problem('currency', rowReason('holdings.currency_code', { field: 'currency' }), currencyText);
  }

  const width = check('width_cm', withRange(readNumber(v.width_cm, mark('width_cm')), 0.1, 10_000), rowReason('holdings.dimension', { field: 'width_cm' }));
  const height = check('height_cm', withRange(readNumber(v.height_cm, mark('height_cm')), 0.1, 10_000), rowReason('holdings.dimension', { field: 'height_cm' }));
  if ((width === undefined) !== (height === undefined) && problems.length === 0) {
    problem(width === undefined ? 'width_cm' : 'height_cm', rowReason('holdings.both_dimensions'));
  }
  const medium = text('medium', 100);
  const notes = text('notes', 2000, true);
  const lot = text('lot', 100);

  const assetId = assetIdOf(descriptors, size);
  const cover = readCover(record, portfolio, mark('insured_value'));
  if (problems.length > 0 || !segment || !brand || !model || purchasePrice === undefined || !purchaseDate || !assetId) return { problems: [...problems, ...cover.problems] };
  return {
    ...(cover.problems.length > 0 ? { coverProblems: cover.problems } : {}),
    holding: {
      portfolio,
      source: record.source,
      segment,
      assetId,
      assetIdGiven: descriptors.assetId ? true : undefined,
      brand,
      model,
      reference,
      year,
      condition,
      boxPapers,
      size,
      quantity,
      purchasePrice,
      purchaseDate,
      currency,
      notes,
      ...(lot !== undefined ? { lot } : {}),
      medium,
      sizeCm: width !== undefined && height !== undefined ? { width, height } : undefined,
      ...(cover.cover ? { cover: cover.cover } : {}),
      ...(cover.refused ? { coverRefused: true as const } : {}),
    },
  };
}

function withRange(read: Read<number>, min: number, max: number): Read<number> {
  if (!read || 'error' in read) return read;
  return read.value < min || read.value > max ? { error: 'out of range' } : read;
}
