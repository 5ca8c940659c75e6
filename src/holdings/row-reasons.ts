import { translator, type MessageKey, type Translator } from '../i18n';
import type { PrimitiveType } from 'intl-messageformat';

/**
 * Why a row could not be read, as a catalogue message of the `holdings` area and its values: the
 * reader keeps its English sentence (what the report's errors print, unchanged), and whoever shows
 * the row to a user in another language (the add-in's cells, in Excel's) says the same message in it.
 * A value may itself be a reason (a cell's hint inside the field's sentence): it is said in the same language.
 */
export interface RowReason {
  key: Extract<MessageKey, `holdings.${string}`>;
  values?: ReasonValues;
}
export type ReasonValues = Record<string, PrimitiveType | RowReason>;

export const rowReason = (key: RowReason['key'], values?: ReasonValues): RowReason => ({ key, values });

/** A cell's reason (cells.ts: its messages start with {field}) about the field it was read for. */
export const aboutField = (reason: RowReason, field: string): RowReason => rowReason(reason.key, { ...reason.values, field });

const isReason = (v: PrimitiveType | RowReason): v is RowReason => typeof v === 'object' && v !== null && !(v instanceof Date);

/** The reason in a language, the reasons inside it too. */
export function sayReason(tr: Translator, reason: RowReason): string {
  const values = reason.values && Object.fromEntries(Object.entries(reason.values).map(([k, v]) => [k, isReason(v) ? sayReason(tr, v) : v]));
  return tr.t(reason.key, values);
}

/** The reason's English: the sentence the report's errors have always printed. */
export const englishReason = (reason: RowReason): string => sayReason(translator('en'), reason);
