/**
 * Reading a file named in a report folder without trusting what is there: only a regular file,
 * never through a link (O_NOFOLLOW), never blocking on a FIFO or device (O_NONBLOCK, then the
 * open descriptor's own fstat must say regular file and match what lstat saw), never more than
 * the bytes allowed, never past a deadline. `svc-report verify` reads the folder with it; the
 * brand loader (src/brand) reads a brand file's logos, fonts and csv with the synchronous form.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, promises as fs, readSync, type Stats } from 'node:fs';

export class UnreadableFile extends Error {
  override name = 'UnreadableFile';
  constructor(
    message: string,
    /** 'missing': not there; 'refused': there, but not a regular file, too large, or too slow. */
    readonly kind: 'missing' | 'refused',
  ) {
    super(message);
  }
}

const CHUNK = 1 << 20;

/** A regular file, opened: what lstat says of the path and fstat of the descriptor must agree (nothing swapped between the two). */
async function openRegular(path: string): Promise<{ handle: fs.FileHandle; size: number }> {
  let st: Awaited<ReturnType<typeof fs.lstat>>;
  try {
    st = await fs.lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UnreadableFile('missing', 'missing');
    throw new UnreadableFile('cannot be read', 'refused');
  }
  if (!st.isFile()) throw new UnreadableFile(`is not a regular file (${kindOf(st)}); not read`, 'refused');
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw new UnreadableFile('cannot be opened as a regular file; not read', 'refused');
  }
  const fst = await handle.stat();
  if (!fst.isFile() || fst.ino !== st.ino || fst.dev !== st.dev) {
    await handle.close();
    throw new UnreadableFile('changed into something other than the regular file it was while being opened; not read', 'refused');
  }
  return { handle, size: fst.size };
}

/** What a path that is not a regular file is, in words (for refusals). */
export function kindOf(st: { isSymbolicLink(): boolean; isFIFO(): boolean; isDirectory(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a folder';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a file';
}

export interface ReadLimits {
  /** More bytes than this: refused without reading on. */
  maxBytes: number;
  /** Date.now() past which reading stops (refused). */
  deadline: number;
}

/** Reads a regular file into `onChunk`, within the limits; returns its size. */
async function readRegular(path: string, limits: ReadLimits, onChunk: (chunk: Buffer) => void): Promise<number> {
  const { handle, size } = await openRegular(path);
  try {
    if (size > limits.maxBytes) throw new UnreadableFile(`is ${size} bytes, more than the ${limits.maxBytes} allowed; not read`, 'refused');
    const buffer = Buffer.alloc(Math.min(CHUNK, limits.maxBytes + 1));
    let total = 0;
    for (;;) {
      if (Date.now() > limits.deadline) throw new UnreadableFile('took longer than verify allows; not read to the end', 'refused');
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return total;
      total += bytesRead;
      // It grew while being read: past its limit, stop rather than read on.
      if (total > limits.maxBytes) throw new UnreadableFile(`holds more than the ${limits.maxBytes} bytes allowed; not read on`, 'refused');
      onChunk(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

export async function hashRegularFile(path: string, limits: ReadLimits): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const bytes = await readRegular(path, limits, (chunk) => hash.update(chunk));
  return { sha256: hash.digest('hex'), bytes };
}

export async function readRegularFile(path: string, limits: ReadLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await readRegular(path, limits, (chunk) => chunks.push(Buffer.from(chunk)));
  return Buffer.concat(chunks);
}

/**
 * The same reader, synchronous, for loaders that run before anything else (the brand file is
 * read while a command's settings are resolved). A regular file's read cannot block, and
 * everything else (FIFO, device, link, socket) is refused before or at the open, so no deadline
 * is needed: at most `maxBytes` are read.
 */
export function readRegularFileSync(path: string, maxBytes: number): Buffer {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UnreadableFile('missing', 'missing');
    throw new UnreadableFile('cannot be read', 'refused');
  }
  if (!st.isFile()) throw new UnreadableFile(`is not a regular file (${kindOf(st)}); not read`, 'refused');
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw new UnreadableFile('cannot be opened as a regular file; not read', 'refused');
  }
  try {
    const fst = fstatSync(fd);
    if (!fst.isFile() || fst.ino !== st.ino || fst.dev !== st.dev) throw new UnreadableFile('changed into something other than the regular file it was while being opened; not read', 'refused');
    if (fst.size > maxBytes) throw new UnreadableFile(`is ${fst.size} bytes, more than the ${maxBytes} allowed; not read`, 'refused');
    const buffer = Buffer.alloc(Math.min(fst.size, maxBytes) + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buffer, total, buffer.length - total, null);
      if (n === 0) return buffer.subarray(0, total);
      total += n;
      // It grew while being read: past its limit, stop rather than read on.
      if (total > maxBytes) throw new UnreadableFile(`holds more than the ${maxBytes} bytes allowed; not read on`, 'refused');
      if (total === buffer.length) throw new UnreadableFile('grew while being read; not read on', 'refused');
    }
  } finally {
    closeSync(fd);
  }
}
