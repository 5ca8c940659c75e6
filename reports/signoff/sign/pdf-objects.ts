/**
 * Just enough of a PDF's file structure to append an incremental update to a report pdfkit wrote
 * (reports/writers/pdf*.ts): the trailer, the classic cross-reference table(s) and the text of an
 * uncompressed object. pdfkit writes no object streams or cross-reference streams; a file that
 * has them is refused with a clear error rather than misread.
 */
export class PdfStructureError extends Error {
  override name = 'PdfStructureError';
}

export interface PdfFile {
  bytes: Buffer;
  /** Object number to its byte offset (the newest revision's). */
  offsets: Map<number, number>;
  trailer: string;
  startxref: number;
  size: number;
}

const latin = (b: Buffer) => b.toString('latin1');

export function readPdf(bytes: Buffer): PdfFile {
  const tail = latin(bytes.subarray(Math.max(0, bytes.length - 2048)));
  const sx = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!sx) throw new PdfStructureError('no startxref at the end of the file');
  const startxref = Number(sx[1]);
  const offsets = new Map<number, number>();
  let trailer = '';
  let at: number | undefined = startxref;
  const seen = new Set<number>();
  while (at !== undefined && !seen.has(at)) {
    seen.add(at);
    const text = latin(bytes.subarray(at, at + 64));
    if (!text.startsWith('xref')) throw new PdfStructureError('a cross-reference stream (not written by pdfkit) is not supported');
    const end = bytes.indexOf('trailer', at, 'latin1');
    const table = latin(bytes.subarray(at + 4, end)).trim().split(/\r?\n/);
    for (let i = 0; i < table.length; ) {
      const [start, count] = table[i]!.trim().split(/\s+/).map(Number) as [number, number];
      for (let k = 0; k < count; k++) {
        const entry = table[i + 1 + k]!.trim().split(/\s+/);
        if (entry[2] === 'n' && !offsets.has(start + k)) offsets.set(start + k, Number(entry[0]));
      }
      i += 1 + count;
    }
    const dictEnd = bytes.indexOf('startxref', end, 'latin1');
    const dict = latin(bytes.subarray(end + 7, dictEnd));
    if (!trailer) trailer = dict;
    const prev = /\/Prev\s+(\d+)/.exec(dict);
    at = prev ? Number(prev[1]) : undefined;
  }
  const size = Number(/\/Size\s+(\d+)/.exec(trailer)?.[1]);
  if (!Number.isInteger(size)) throw new PdfStructureError('the trailer has no /Size');
  return { bytes, offsets, trailer, startxref, size };
}

/** An object's body (between "N 0 obj" and "endobj"); a stream's dictionary only is not needed here. */
export function objectBody(pdf: PdfFile, num: number): string {
  const at = pdf.offsets.get(num);
  if (at === undefined) throw new PdfStructureError(`object ${num} is not in the cross-reference table`);
  const end = pdf.bytes.indexOf('endobj', at, 'latin1');
  const text = latin(pdf.bytes.subarray(at, end));
  const head = /^\s*\d+\s+\d+\s+obj\s*/.exec(text);
  if (!head) throw new PdfStructureError(`object ${num} is not where the cross-reference table says`);
  return text.slice(head[0].length).trimEnd();
}

/** The object number a key of a dictionary refers to ("/Root 3 0 R" -> 3). */
export function refOf(dict: string, key: string): number | undefined {
  const m = new RegExp(`/${key}\\s+(\\d+)\\s+0\\s+R`).exec(dict);
  return m ? Number(m[1]) : undefined;
}

/** A dictionary's text with entries added before its final ">>". */
export function withEntries(dict: string, entries: string): string {
  const end = dict.lastIndexOf('>>');
  if (end < 0) throw new PdfStructureError('not a dictionary');
  return `${dict.slice(0, end)}${entries}\n${dict.slice(end)}`;
}

/** The index of the "]" closing the array that opens at `open` (arrays of numbers, refs and arrays). */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  throw new PdfStructureError('an array is not closed');
}

/** The dictionary with `item` appended to the array under `key` (which must be an inline array). */
export function appendToArray(dict: string, key: string, item: string): string {
  const k = new RegExp(`/${key}\\s*\\[`).exec(dict);
  if (!k) throw new PdfStructureError(`/${key} is not an inline array`);
  const close = closingBracket(dict, k.index + k[0].length - 1);
  return `${dict.slice(0, close)} ${item}${dict.slice(close)}`;
}

/**
 * An incremental update: the changed and new objects, a cross-reference section for them and a
 * trailer whose /Prev points at the previous one; the original bytes are untouched.
 */
export function incrementalUpdate(pdf: PdfFile, objects: Map<number, string>, size: number): Buffer {
  let body = pdf.bytes[pdf.bytes.length - 1] === 0x0a ? '' : '\n';
  const offsets = new Map<number, number>();
  for (const [num, text] of [...objects].sort(([a], [b]) => a - b)) {
    offsets.set(num, pdf.bytes.length + Buffer.byteLength(body, 'latin1'));
    body += `${num} 0 obj\n${text}\nendobj\n`;
  }
  const xrefAt = pdf.bytes.length + Buffer.byteLength(body, 'latin1');
  const nums = [...offsets.keys()].sort((a, b) => a - b);
  let xref = 'xref\n';
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    xref += `${nums[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) xref += `${String(offsets.get(nums[k]!)).padStart(10, '0')} 00000 n \n`;
    i = j + 1;
  }
  const keep = (key: string) => new RegExp(`/${key}\\s+(\\d+\\s+0\\s+R|\\[[^\\]]*\\])`).exec(pdf.trailer)?.[0];
  const trailer = ['<<', `/Size ${size}`, keep('Root'), keep('Info'), keep('ID'), `/Prev ${pdf.startxref}`, '>>'].filter(Boolean).join('\n');
  return Buffer.concat([pdf.bytes, Buffer.from(`${body}${xref}trailer\n${trailer}\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1')]);
}
