import type { WriteStream } from 'node:fs';
import { once } from 'node:events';
import { writeAtomically } from './atomic-write';
import { abandonableStream } from './abandonable-stream';

/** Text is joined into chunks of about this many characters before each write. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Buffered text output honouring backpressure: when the stream's buffer is full the producer
 * waits for 'drain', so memory stays bounded however many rows come.
 */
export class ChunkedWriter {
  private buffer = '';
  constructor(private readonly stream: WriteStream) {}

  /**
   * Buffers `text`; returns a promise only when the buffer was handed to the stream and the
   * stream asked to wait. Callers write `const wait = out.text(s); if (wait) await wait;` so
   * the common case costs no promise (a million rows would otherwise be a million awaits).
   */
  text(text: string): Promise<void> | undefined {
    this.buffer += text;
    if (this.buffer.length < CHUNK_CHARS) return undefined;
    const chunk = this.buffer;
    this.buffer = '';
    return this.stream.write(chunk) ? undefined : once(this.stream, 'drain').then(() => undefined);
  }

  async flush(): Promise<void> {
    if (this.buffer === '') return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

/**
 * Streams UTF-8 text into `filePath` atomically; a stream error rejects instead of hanging on 'drain'.
 * On any failure the stream is destroyed and its file descriptor closed before the error goes
 * up: otherwise the stream could still be opening (or flushing) the temporary file while
 * writeAtomically removes it, and the file would reappear after the promise rejected.
 */
export async function streamTextFile(filePath: string, produce: (out: ChunkedWriter) => Promise<void>): Promise<void> {
  await writeAtomically(filePath, async (tempPath) => {
    const { stream, abandon } = abandonableStream(tempPath, { encoding: 'utf8' });
    const failed = new Promise<never>((_, reject) => stream.once('error', reject));
    failed.catch(() => undefined); // observed below; never an unhandled rejection
    const out = new ChunkedWriter(stream);
    try {
      await Promise.race([
        (async () => {
          await produce(out);
          await out.close();
        })(),
        failed,
      ]);
    } catch (err) {
      await abandon();
      throw err;
    }
  });
}
