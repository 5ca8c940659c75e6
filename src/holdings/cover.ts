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
import { cellText, existsHint, readDateText, readNumber } from './cells';
import { rowReader } from './row-reader';
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

const KEPT = 'the holding is still valued, without this cover field';

export function readCover(record: RawRecord, portfolio: string, mark?: DecimalConvention): CoverRead {
  const v = record.values;
  const r = rowReader(record, portfolio);
  const cover: CoverInput = {};

  const valueText = cellText(v.insured_value);
  if (valueText !== undefined) {
    const read = readNumber(v.insured_value, mark);
    if (read && 'value' in read && read.value >= 0 && read.value <= Number.MAX_SAFE_INTEGER) cover.insured_value = read.value;
    else r.problem('insured_value', `insured_value ${read && 'error' in read && read.reason ? read.reason : 'must be a number of 0 or more, such as 250000 or 250,000.00 (the agreed value on the policy, all units, in the row\'s currency or insured_currency)'}; ${KEPT}`, v.insured_value);
  }

  const currencyText = cellText(v.insured_currency)?.toUpperCase();
  if (currencyText !== undefined) {
    if (isCurrencyCode(currencyText)) cover.insured_currency = currencyText;
    else r.problem('insured_currency', `insured_currency must be an ISO 4217 code such as USD, EUR, GBP, CHF, HKD or JPY; ${KEPT}`, currencyText);
  }

  const dateRead = readDateText(v.renewal_date);
  if (dateRead && 'error' in dateRead) r.problem('renewal_date', `renewal_date ${dateRead.reason ?? 'must be a date as YYYY-MM-DD'}; ${KEPT}`, v.renewal_date);
  else if (dateRead && !isRealDate(dateRead.value)) r.problem('renewal_date', `renewal_date must be a date that exists, as YYYY-MM-DD${existsHint(dateRead.value)}; ${KEPT}`, dateRead.value);
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
