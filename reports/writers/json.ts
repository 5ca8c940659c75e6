import type { ReportData } from '../report-data';
import { streamTextFile } from './chunked-writer';
import { holdingDocument, reportDocumentHead } from './json-document';

/** An array of the document streamed in place of its empty slot in the head, one compact row per line. */
export interface StreamedArray {
  /** The top-level key whose empty array in the head the rows replace, e.g. "holdings". */
  key: string;
  /** Each row's JSON text. */
  rows: Iterable<string>;
}

/** Each row of `rows` as JSON text, lazily (the rows are not held as strings all at once). */
export function* jsonRows<T>(rows: Iterable<T>, toJson: (row: T) => unknown): Iterable<string> {
  for (const row of rows) yield JSON.stringify(toJson(row));
}

/**
 * Writes `head` pretty-printed with each of `arrays` streamed into its empty top-level array,
 * one compact row per line, honouring backpressure. The head is stringified without the rows,
 * so 100,000 holdings or errors never become one large string.
 */
export async function writeJsonWithStreamedArrays(filePath: string, head: Record<string, unknown>, arrays: readonly StreamedArray[]): Promise<void> {
  const text = JSON.stringify(head, null, 2);
  // Top-level keys only (two spaces in): a string value cannot hold an unescaped quote, so the slot cannot be faked.
  const slots = arrays
    .map((a) => {
      const slot = `\n  ${JSON.stringify(a.key)}: []`;
      const at = text.indexOf(slot);
      if (at < 0) throw new Error(`internal: the JSON head has no empty top-level "${a.key}" array`);
      return { at: at + slot.length - 1, rows: a.rows };
    })
    .sort((a, b) => a.at - b.at);
  await streamTextFile(filePath, async (out) => {
    let from = 0;
    for (const { at, rows } of slots) {
      // `at` is the slot's closing bracket: everything before it, the rows, then the bracket.
      await out.text(text.slice(from, at));
      let first = true;
      for (const row of rows) {
        const wait = out.text(`${first ? '' : ','}\n    ${row}`);
        if (wait) await wait;
        first = false;
      }
      await out.text(first ? '' : '\n  ');
      from = at;
    }
    await out.text(`${text.slice(from)}\n`);
  });
}

/** The portfolio report as versioned JSON (see reports/schema/portfolio-report.schema.json). */
export async function writeJson(data: ReportData, filePath: string): Promise<void> {
  await writeJsonWithStreamedArrays(filePath, reportDocumentHead(data), [
    { key: 'holdings', rows: jsonRows(data.holdings, holdingDocument) },
    // Errors are streamed too: 100,000 bad rows would otherwise make the head one string of tens of megabytes.
    { key: 'errors', rows: jsonRows(data.errors, (e) => e) },
  ]);
}
