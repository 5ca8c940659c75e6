import { translator, type MessageKey, type MessageValues } from '../i18n';

/**
 * Why a row could not be read, as a catalogue message of the `holdings` area and its values: the
 * reader keeps its English sentence (what the report's errors print, unchanged), and whoever shows
 * the row to a user in another language (the add-in's cells, in Excel's) says the same message in it.
 */
export interface RowReason {
  key: Extract<MessageKey, `holdings.${string}`>;
  values?: MessageValues;
}

export const rowReason = (key: RowReason['key'], values?: MessageValues): RowReason => ({ key, values });

/** The reason's English: the sentence the report's errors have always printed. */
export const englishReason = (reason: RowReason): string => translator('en').t(reason.key, reason.values);
