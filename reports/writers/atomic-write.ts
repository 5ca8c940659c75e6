import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Produces `finalPath` atomically: `produce` writes a temporary file in the same folder (same
 * file system, so rename is atomic), which is renamed over the final name only once it is
 * complete. A crash or error leaves no half-written report under the final name; the
 * temporary file is removed on error.
 */
export async function writeAtomically(finalPath: string, produce: (tempPath: string) => Promise<void>): Promise<void> {
  const dir = path.dirname(finalPath);
  await fs.mkdir(dir, { recursive: true });
  const tempPath = path.join(dir, `.${path.basename(finalPath)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await produce(tempPath);
    await fs.rename(tempPath, finalPath);
  } catch (err) {
    await fs.rm(tempPath, { force: true });
    throw err;
  }
}
