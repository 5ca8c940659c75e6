/**
 * What delivery wrote into a delivery folder, kept inside it (DIR/.svc-report-delivery.json): each
 * client file by client folder and plain name, its SHA-256 and the run folder it came from. Take-back
 * removes only what this record lists, so a file a client or colleague put there is never removed.
 * The record is read as a regular file (no link, no FIFO) and every entry must be a plain name one
 * level down: a record edited to point anywhere else is refused, naming the entry, and nothing is
 * removed.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readRegularFile, UnreadableFile } from '../../src/regular-file';
import { UsageError } from '../run/exit-codes';
import { plainNameProblem, quotedName } from './run-file-name';

export const DELIVERY_RECORD = '.svc-report-delivery.json';

const DeliveredFile = z.object({
  /** The client's folder, a plain name inside the delivery folder. */
  client: z.string(),
  /** The file's plain name inside the client's folder. */
  name: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The run folder it was delivered from (absolute), for whoever looks. */
  run_folder: z.string(),
  at: z.string(),
});
export type DeliveredFile = z.infer<typeof DeliveredFile>;

const DeliveryRecord = z.object({ record_version: z.literal(1), files: z.array(DeliveredFile) });
export type DeliveryRecord = z.infer<typeof DeliveryRecord>;

const RECORD_MAX_BYTES = 64 * 1024 * 1024;
const RECORD_READ_MS = 60_000;

/** The folder's record; an empty one where none was written yet. */
export async function readDeliveryRecord(to: string): Promise<DeliveryRecord> {
  const file = path.join(to, DELIVERY_RECORD);
  let doc: unknown;
  try {
    doc = JSON.parse((await readRegularFile(file, { maxBytes: RECORD_MAX_BYTES, deadline: Date.now() + RECORD_READ_MS })).toString('utf8'));
  } catch (e) {
    if (e instanceof UnreadableFile && e.kind === 'missing') return { record_version: 1, files: [] };
    throw new UsageError(`${file}: ${e instanceof UnreadableFile ? e.message : 'not valid JSON'}; not a delivery record svc-report wrote; refused, nothing was delivered or removed`);
  }
  const parsed = DeliveryRecord.safeParse(doc);
  if (!parsed.success) throw new UsageError(`${file}: not a delivery record svc-report wrote (${parsed.error.issues[0]!.path.join('.') || 'top level'}); refused, nothing was delivered or removed`);
  for (const f of parsed.data.files) {
    for (const name of [f.client, f.name]) {
      const problem = plainNameProblem(name);
      if (problem) throw new UsageError(`${file} lists ${quotedName(name)}, which ${problem}: delivery writes plain names inside its folder; the record was edited; refused, nothing was delivered or removed`);
    }
  }
  return parsed.data;
}

/** Writes the record whole as a new file beside it, renamed into place (never through a link at its name). */
export async function saveDeliveryRecord(to: string, record: DeliveryRecord): Promise<void> {
  const target = path.join(to, DELIVERY_RECORD);
  const st = await fs.lstat(target).catch(() => undefined);
  if (st && !st.isFile()) throw new UsageError(`${target} is not a regular file; the delivery record was not written`);
  const temp = path.join(to, `${DELIVERY_RECORD}.${randomBytes(6).toString('hex')}.part`);
  const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o640);
  try {
    await handle.writeFile(JSON.stringify(record, null, 2) + '\n');
  } finally {
    await handle.close();
  }
  await fs.rename(temp, target).catch(async (e: unknown) => {
    await fs.rm(temp, { force: true });
    throw e;
  });
}
