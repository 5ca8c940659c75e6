import { HOLDINGS_VOCABULARY, nearestColumn, normaliseHeader, type Column, type Vocabulary } from './columns';

/**
 * Headers no column matched, sorted by what they mean for the figures. A column that is not read
 * changes nothing only when it was never meant to be read: one that is a slip away from a column
 * ("Curency", "Quantiy") would silently value GBP as USD or six cases as one, so it must be
 * renamed or left out on purpose; one that resembles nothing ("Colour") is only worth a warning.
 */
export interface UnknownHeaders {
  /** Headers close to a column by edit distance or through an alias: they stop the run. */
  closeMisses: { header: string; column: Column }[];
  /** Headers the user chose to leave out (--ignore-column, the config's ignore_columns). */
  ignored: string[];
  /** Headers like no column: left out with a warning. */
  unrelated: string[];
}

/** `ignore`: names as the user typed them; a header matches one when both normalise alike ("Quantiy", " quantiy "). */
export function sortUnknownHeaders(headers: readonly string[], ignore: readonly string[] = [], vocabulary: Vocabulary = HOLDINGS_VOCABULARY): UnknownHeaders {
  const ignoring = new Set(ignore.map(normaliseHeader));
  const sorted: UnknownHeaders = { closeMisses: [], ignored: [], unrelated: [] };
  for (const header of headers) {
    if (ignoring.has(normaliseHeader(header))) {
      sorted.ignored.push(header);
      continue;
    }
    const column = nearestColumn(header, vocabulary);
    if (column) sorted.closeMisses.push({ header, column });
    else sorted.unrelated.push(header);
  }
  return sorted;
}

/** True when an --ignore-column name matches one of the headers (so a mistyped name can be pointed out). */
export function namesHeader(name: string, headers: readonly string[]): boolean {
  const n = normaliseHeader(name);
  return headers.some((h) => normaliseHeader(h) === n);
}

/** What reading a column as nothing does to the figures, where it is not obvious. */
const CONSEQUENCE: Partial<Record<Column, string>> = {
  currency: 'every price would be taken to be in the report\'s currency',
  quantity: 'every holding would be valued as one unit',
};

/**
 * The sentence that stops a table with close misses: where, each header with its likely column,
 * what silently goes wrong otherwise, and `remedy` (how to leave a column out where the table is read).
 */
export function describeCloseMisses(where: string, misses: UnknownHeaders['closeMisses'], remedy: (header: string) => string): string {
  const one = misses.length === 1;
  const each = misses.map((m) => `"${m.header}" (did you mean ${m.column}?)`);
  const effects = misses.map((m) => CONSEQUENCE[m.column]).filter((e): e is string => e !== undefined);
  const first = misses[0]!;
  return (
    `${where}: ${one ? 'the column' : 'the columns'} ${each.join(' and ')} ${one ? 'is not one' : 'are not ones'} the reports read, ` +
    `so ${one ? 'its' : 'their'} values would be left out without a word${effects.length ? ` (${effects.join('; ')})` : ''}. ` +
    `Rename the header to ${first.column}, or ${remedy(first.header)}`
  );
}
