/**
 * A row's cover (issue 37): insured value, its currency, insurer, policy, renewal date, serial.
 * Read apart from the row's other fields: a bad cover cell is a problem by row and field, but
 * the holding is still read and valued (its cover left out), so one mistyped insured value never
 * takes a holding out of the report.
 */
import { isRealDate } from '../wire';
import { isCurrencyCode } from '../fx/codes';
import type { CoverInput } from '../insurance/types';
import type { DecimalConvention } from './amounts';
import { cellText, notADay, readDateText, readNumber } from './cells';
import { rowReader } from './row-reader';
import { aboutField, rowReason, type RowReason } from './row-reasons';
import type { RawRecord, RowProblem } from './types';

/** The cover columns, as a holdings or a transactions file names them. */
export const COVER_COLUMNS = ['insured_value', 'insured_currency', 'insurer', 'policy', 'renewal_date', 'serial'] as const;

/** Why the review leaves an item out: its insured value or currency was refused, so "not insured" would be false. */
export const COVER_REFUSED_FIELDS: readonly string[] = ['insured_value', 'insured_currency'];

export interface CoverRead {
  /** The fields read; absent when the row has no cover cell filled. */
  cover?: CoverInput;
  /** Bad cover cells, by field: the holding is kept without them. */
  problems: RowProblem[];
  /** True when the insured value could not be taken (refused value or currency): the item's cover is unknown. */
  refused: boolean;
}

/** A cover field's reason, with what happens to the holding: it is still valued, without the field. */
const kept = (reason: RowReason): RowReason => rowReason('holdings.cover_kept', { reason });

export function readCover(record: RawRecord, portfolio: string, mark?: DecimalConvention): CoverRead {
  const v = record.values;
  const r = rowReader(record, portfolio);
  const cover: CoverInput = {};

  const valueText = cellText(v.insured_value);
  if (valueText !== undefined) {
    const read = readNumber(v.insured_value, mark);
    if (read && 'value' in read && read.value >= 0 && read.value <= Number.MAX_SAFE_INTEGER) cover.insured_value = read.value;
    else r.problem('insured_value', kept(read && 'error' in read && read.reason ? aboutField(read.reason, 'insured_value') : rowReason('holdings.insured_value_number', { field: 'insured_value' })), v.insured_value);
  }

  const currencyText = cellText(v.insured_currency)?.toUpperCase();
  if (currencyText !== undefined) {
    if (isCurrencyCode(currencyText)) cover.insured_currency = currencyText;
    else r.problem('insured_currency', kept(rowReason('holdings.currency_code', { field: 'insured_currency' })), currencyText);
  }

  const dateRead = readDateText(v.renewal_date);
  if (dateRead && 'error' in dateRead) r.problem('renewal_date', kept(dateRead.reason ? aboutField(dateRead.reason, 'renewal_date') : rowReason('holdings.date_form', { field: 'renewal_date' })), v.renewal_date);
  else if (dateRead && !isRealDate(dateRead.value)) r.problem('renewal_date', kept(notADay('renewal_date', dateRead.value)), dateRead.value);
  else if (dateRead) cover.renewal_date = dateRead.value;

  const insurer = r.text('insurer', 200);
  if (insurer !== undefined) cover.insurer = insurer;
  const policy = r.text('policy', 100);
  if (policy !== undefined) cover.policy = policy;
  const serial = r.text('serial', 100);
  if (serial !== undefined) cover.serial = serial;

  const refused = r.problems.some((p) => COVER_REFUSED_FIELDS.includes(p.field));
  const any = Object.keys(cover).length > 0 || r.problems.length > 0;
  return { ...(any ? { cover } : {}), problems: r.problems, refused };
}
