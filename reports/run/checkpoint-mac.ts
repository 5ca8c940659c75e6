import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { join } from 'node:path';

/**
 * The checkpoint's per-run key: 32 random bytes (hex) in a file beside the checkpoint, created
 * mode 0600 when the run first journals, and removed with the checkpoint. Every journal line
 * carries an HMAC-SHA-256 under it, so a line edited by anyone who cannot read the key (another
 * account with write access to the folder, a copy of the folder edited elsewhere) fails its
 * check and is valued again. It does not stand against the run's own account, which can read
 * the key (docs/security.md).
 */
export const CHECKPOINT_KEY_FILE = '.svc-report-checkpoint.key';

export type CheckpointSecret = Buffer;

/** A fresh key, written with O_EXCL and mode 0600 (a key left by an earlier run is replaced, never reused). */
export async function createCheckpointSecret(outDir: string): Promise<CheckpointSecret> {
  const path = join(outDir, CHECKPOINT_KEY_FILE);
  const secret = randomBytes(32);
  await fs.rm(path, { force: true });
  const file = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await file.writeFile(secret.toString('hex') + '\n');
    await file.datasync();
  } finally {
    await file.close();
  }
  return secret;
}

/**
 * The key beside the checkpoint, or why it cannot be trusted: missing, not a regular file of
 * this account's, readable by others (then anyone could have re-signed an edit), or not a key.
 */
export async function readCheckpointSecret(outDir: string): Promise<{ secret: CheckpointSecret } | { why: string }> {
  const path = join(outDir, CHECKPOINT_KEY_FILE);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    return { why: (e as NodeJS.ErrnoException).code === 'ENOENT' ? `its key ${CHECKPOINT_KEY_FILE} is missing` : `its key ${CHECKPOINT_KEY_FILE} cannot be read` };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { why: `its key ${CHECKPOINT_KEY_FILE} is not a regular file` };
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return { why: `its key ${CHECKPOINT_KEY_FILE} belongs to another account` };
    if ((st.mode & 0o077) !== 0) return { why: `its key ${CHECKPOINT_KEY_FILE} is readable or writable by others (mode ${(st.mode & 0o777).toString(8)}, must be 600)` };
    if (st.size > 200) return { why: `its key ${CHECKPOINT_KEY_FILE} is not a key` };
    const text = (await handle.readFile('utf8')).trim();
    if (!/^[0-9a-f]{64}$/.test(text)) return { why: `its key ${CHECKPOINT_KEY_FILE} is not a key` };
    return { secret: Buffer.from(text, 'hex') };
  } finally {
    await handle.close();
  }
}

/**
 * A journal line's MAC: HMAC-SHA-256 under the run's key of the run's input hash (the
 * checkpoint key), a newline, and the line's JSON without its `mac` field. Binding the input
 * hash keeps a line of another run's checkpoint from passing in this one.
 */
export function lineMac(secret: CheckpointSecret, runKey: string, body: string): string {
  return createHmac('sha256', secret).update(`${runKey}\n${body}`).digest('hex');
}

/** A line as written: its JSON with the MAC of that JSON as its last field. */
export function signedLine(secret: CheckpointSecret, runKey: string, entry: object): string {
  const body = JSON.stringify(entry);
  return `${body.slice(0, -1)}${body.length > 2 ? ',' : ''}"mac":"${lineMac(secret, runKey, body)}"}`;
}

/** Whether a parsed line's `mac` is the MAC of the rest of it (compared in constant time). */
export function macVerifies(secret: CheckpointSecret, runKey: string, raw: Record<string, unknown>): boolean {
  const { mac, ...rest } = raw;
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(lineMac(secret, runKey, JSON.stringify(rest)), 'hex'));
}
