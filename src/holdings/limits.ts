import { readFile, stat } from 'node:fs/promises';
import yauzl from 'yauzl';
import { InputError } from './types';

/**
 * What one holdings file may hold (docs/report-job.md, "Limits"). Each is checked before the
 * file is read whole, so a file far past a limit is refused in a moment, not after it has
 * filled the memory. The row limit leaves room for a month-end of 1,000 portfolios of 50
 * holdings in one file; the unpacked-xlsx limit is where the workbook reader's memory
 * (about 18 bytes per unpacked byte) stays near 1 GB.
 */
export const INPUT_LIMITS = {
  /** Bytes of one holdings file as stored (csv, json or xlsx). */
  fileBytes: 64 * 1024 * 1024,
  /** Data rows (or JSON items) of one file. */
  rows: 200_000,
  /** Bytes an xlsx unpacks to, all its parts together. */
  xlsxUnpackedBytes: 64 * 1024 * 1024,
} as const;

const mb = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;

/** The file's size against the byte limit, from the file system, before reading it. */
export async function checkFileSize(file: string, limit = INPUT_LIMITS.fileBytes): Promise<void> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    return; // reading it says why (no such file, permission)
  }
  if (size > limit) throw new InputError(`${file} is larger than ${mb(limit)} (${mb(size)}), the limit for one holdings file: split it into several files`);
}

export function checkRowCount(file: string, rows: number, limit = INPUT_LIMITS.rows): void {
  if (rows > limit) throw new InputError(`${file} has more than ${limit.toLocaleString('en-US')} rows, the limit for one holdings file: split it into several files`);
}

/**
 * An xlsx is a zip: its central directory says what each part unpacks to. That is summed and
 * checked before anything is inflated (a workbook of 9 MB can unpack to hundreds), then each part
 * is inflated once as a stream, without keeping it, to check it is no larger than it said
 * (yauzl's entry-size validation), so a zip that lies about its sizes is refused too.
 */
export async function checkXlsxUnpackedSize(content: Buffer, file: string, limit = INPUT_LIMITS.xlsxUnpackedBytes, verify = true): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(content, { lazyEntries: true, validateEntrySizes: true });
  } catch (e) {
    throw new InputError(`${file} is not a readable Excel (.xlsx) workbook: ${(e as Error).message}`);
  }
  const tooBig = (total: number) =>
    new InputError(`${file} unpacks to ${total > limit ? `more than ${mb(limit)}` : mb(total)}, over the limit of ${mb(limit)} unpacked for one Excel workbook: save it as .csv, or split it into several workbooks`);
  try {
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      declared += entry.uncompressedSize;
      if (declared > limit) throw tooBig(declared);
      entries.push(entry);
    }
    for (const entry of verify ? entries : []) {
      if (entry.fileName.endsWith('/')) continue;
      const stream = await zip.openReadStreamPromise(entry);
      // yauzl fails the stream when a part inflates past its declared size.
      for await (const chunk of stream) void chunk;
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${file} is not a readable Excel (.xlsx) workbook: ${(e as Error).message}`);
  } finally {
    zip.close();
  }
}

/**
 * The limits every file can be checked against cheaply — its size, and for an xlsx what its zip
 * directory says it unpacks to — run before the job loads its heavier modules, so a file far
 * past a limit is refused within moments of start-up. Reading the file checks them all again.
 */
export async function checkInputLimits(files: readonly string[]): Promise<void> {
  for (const file of files) {
    await checkFileSize(file);
    if (!/\.xls[xm]$/i.test(file)) continue;
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch {
      continue; // reading it properly says why
    }
    await checkXlsxUnpackedSize(content, file, INPUT_LIMITS.xlsxUnpackedBytes, false);
  }
}
