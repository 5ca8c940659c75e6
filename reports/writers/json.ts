import type { ReportData } from '../report-data';
import { streamTextFile } from './chunked-writer';
import { holdingDocument, reportDocumentHead } from './json-document';

/** Marks where the streamed holdings go in the pretty-printed head. */
const HOLDINGS_SLOT = '"holdings": []';

/**
 * Writes `head` pretty-printed with the rows streamed into its empty `key` array, one compact
 * row per line, honouring backpressure.
 */
export async function writeJsonWithStreamedArray<T>(
  filePath: string,
  head: Record<string, unknown>,
  slot: string,
  rows: Iterable<T>,
  toJson: (row: T) => unknown,
): Promise<void> {
  const text = JSON.stringify(head, null, 2);
  const at = text.indexOf(slot);
  if (at < 0) throw new Error(`internal: the JSON head has no ${slot} slot`);
  const indent = text.lastIndexOf('\n', at);
  const pad = ' '.repeat(at - indent - 1);
  await streamTextFile(filePath, async (out) => {
    await out.text(text.slice(0, at + slot.length - 1));
    let first = true;
    for (const row of rows) {
      const wait = out.text(`${first ? '' : ','}\n${pad}  ${JSON.stringify(toJson(row))}`);
      if (wait) await wait;
      first = false;
    }
    await out.text(`${first ? '' : `\n${pad}`}]${text.slice(at + slot.length)}\n`);
  });
}

/** The portfolio report as versioned JSON (see reports/schema/portfolio-report.schema.json). */
export async function writeJson(data: ReportData, filePath: string): Promise<void> {
  await writeJsonWithStreamedArray(filePath, reportDocumentHead(data), HOLDINGS_SLOT, data.holdings, holdingDocument);
}
