import { createWriteStream, type WriteStream } from 'node:fs';

/**
 * A write stream to a file, and a way to abandon it after a failure: destroyed, and resolved only
 * once its descriptor is closed. A stream may still be opening (or flushing) its file when the
 * work feeding it fails; removed before that, the file would reappear after the removal.
 */
export function abandonableStream(path: string, options?: { encoding?: BufferEncoding }): { stream: WriteStream; abandon(): Promise<void> } {
  const stream = createWriteStream(path, options);
  const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  return {
    stream,
    abandon: async () => {
      stream.destroy();
      await closed;
    },
  };
}
