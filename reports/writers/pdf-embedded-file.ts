/**
 * A file made ready for embedding in a PDF without holding it whole: read once as a stream,
 * hashed (the embedded file's /CheckSum) and deflated (its /FlateDecode stream) on the way, so
 * only the compressed bytes stay in memory. The report's JSON of 100,000 errors is tens of
 * megabytes raw but about a megabyte deflated; pdfkit's own `file()` would hold it raw, join
 * its chunks into a second copy and deflate that into a third.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createDeflate } from 'node:zlib';

export interface PackedFile {
  /** The file's bytes, deflated (zlib format, as a PDF FlateDecode stream expects). */
  deflated: Buffer;
  /** Uncompressed size in bytes (/Params /Size). */
  size: number;
  /** MD5 of the uncompressed bytes, hex (/Params /CheckSum, as pdfkit writes it). */
  md5: string;
}

export async function packFile(filePath: string): Promise<PackedFile> {
  const hash = createHash('md5');
  const deflated: Buffer[] = [];
  let size = 0;
  await pipeline(
    createReadStream(filePath),
    async function* measure(source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createDeflate(),
    async function collect(source: AsyncIterable<Buffer>) {
      for await (const chunk of source) deflated.push(chunk);
    },
  );
  return { deflated: Buffer.concat(deflated), size, md5: hash.digest('hex') };
}
