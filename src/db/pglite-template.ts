import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { packageRoot } from '../package-root';
import { MIGRATIONS, migrate } from './migrations';

/**
 * A fresh embedded database starts from a copy of a migrated empty one made once, not from
 * initdb and the migrations.
 *
 * Why: PGlite's initdb is the largest single cost of a first run (about 6 s of CPU on two cores,
 * measured for issue 34) and the migrations the next (about 1.3 s), paid by every new database
 * folder: a newcomer's first `npm run demo`, every test that records a month-end. Unpacking a
 * cluster PGlite itself wrote (dumpDataDir, loadDataDir) with the schema already in it takes about
 * 2 s. The copy is made at build time (`npm run build`, which `npm install` runs) under the
 * package's .cache/, and lazily by the first opening that finds none. Its name carries the PGlite
 * version that wrote it and the migrations it holds (the last one's name and a hash of all their
 * names), so an upgrade or a new migration looks for a new copy and never opens an older one. A
 * copy that is not whole (its gzip's length and CRC are checked before PGlite sees it) is removed
 * and made again; where none can be made (a read-only install) initdb makes the folder as before.
 * The migrations still run on every open: on a folder from the copy they find nothing to do.
 */

/** Larger than any empty cluster PGlite writes (about 4 MB gzipped): a bigger file is not ours. */
const MAX_TEMPLATE_BYTES = 64 * 1024 * 1024;

/** PGlite's dist/ folder (its index, wasm and data files). */
const pgliteDist = () => dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

function pgliteVersion(): string {
  // …/node_modules/@electric-sql/pglite/dist/index.cjs → the package's own package.json
  let dir = pgliteDist();
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    } catch {
      // not this folder: keep climbing
    }
  }
  throw new Error('cannot find the version of @electric-sql/pglite');
}

/**
 * The schema a copy holds, for its name: the last migration's name and a hash of every name (a
 * shipped migration is never edited, only followed by another: migrations.ts).
 */
export function schemaKey(names: readonly string[] = Object.keys(MIGRATIONS).sort()): string {
  const last = (names.at(-1) ?? 'none').replace(/[^\w.-]/g, '_');
  return `${last}-${createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 12)}`;
}

/** Where the migrated empty cluster for the installed PGlite and this schema is kept. */
export function templatePath(root: string = packageRoot(), names?: readonly string[]): string {
  return join(root, '.cache', `pglite-migrated-${pgliteVersion()}-${schemaKey(names)}.tar.gz`);
}

/** Copies being written by this process, by path: two openings at once make one. */
const making = new Map<string, Promise<string>>();

/**
 * Writes the migrated empty cluster if no whole copy is there yet; returns its path. Safe from two
 * processes at once: each writes a file of its own beside it and renames it over (a reader sees a
 * whole file or none; the last one written wins, both being the same cluster).
 */
export function ensureTemplate(path: string = templatePath()): Promise<string> {
  if (readTemplate(path)) return Promise.resolve(path);
  let made = making.get(path);
  if (!made) {
    made = writeTemplate(path).finally(() => making.delete(path));
    making.set(path, made);
  }
  return made;
}

async function writeTemplate(path: string): Promise<string> {
  const pg = await PGlite.create({ ...((await compiledEngine()) ?? {}) });
  const kysely = new Kysely<unknown>({ dialect: new PGliteDialect(pg) });
  try {
    await migrate(kysely);
    const bytes = Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer());
    mkdirSync(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    try {
      writeFileSync(partial, bytes);
      renameSync(partial, path);
    } finally {
      rmSync(partial, { force: true });
    }
  } finally {
    await kysely.destroy().catch(() => {});
    await pg.close().catch(() => {});
  }
  return path;
}

/** The build's copy, or undefined where its place cannot be told (PGlite's version not found): initdb then. */
function defaultTemplate(): string | undefined {
  try {
    return templatePath();
  } catch {
    return undefined;
  }
}

/**
 * The cluster as an uncompressed tar, or undefined when there is none usable (then PGlite runs
 * initdb). Only a regular file of a sane size whose gzip is whole: unpacked here, where a
 * truncated or damaged file is an error we catch (inside PGlite the same error escapes as an
 * uncaught stream error and ends the process).
 */
export function readTemplate(path: string): Blob | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size === 0 || st.size > MAX_TEMPLATE_BYTES) return undefined;
    return bytesAsBlob(gunzipSync(readFileSync(path)));
  } catch {
    return undefined;
  }
}

/**
 * Bytes PGlite reads as a Blob, without Node's Blob: that copies the 40 MB cluster into its own
 * store and reads it back in small chunks (0.6 s of the main thread's CPU, measured), where PGlite
 * reads nothing but `arrayBuffer()` (and `type`, to tell a gzip) of a copy or its file bundle.
 */
function bytesAsBlob(bytes: Uint8Array): Blob {
  const whole = () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const blob: Pick<Blob, 'size' | 'type' | 'arrayBuffer'> = { size: bytes.byteLength, type: '', arrayBuffer: async () => whole() };
  return blob as Blob;
}

/** Removes a copy found unusable, unless another process has already put a new one in its place. */
function discard(path: string, seen: number): void {
  try {
    if (statSync(path).ino === seen) unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

const statOf = (path: string) => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

/**
 * PGlite's compiled engine and file bundle, kept for the process: a command that opens its
 * folder twice (to read, then to record) and the host that opens it per request compile the
 * 10 MB module once (about a third of an opening's CPU, measured). Undefined where PGlite's
 * files are not where this version keeps them: PGlite then loads its own.
 */
let engine: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob } | undefined> | undefined;
function compiledEngine(): Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob } | undefined> {
  engine ??= (async () => {
    const dist = pgliteDist();
    const [wasm, data] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: bytesAsBlob(data) };
  })().catch(() => undefined);
  return engine;
}

/**
 * Opens PGlite on `dataDir`. A folder that holds no cluster yet is filled from the copy (made now
 * if missing or not whole); if the copy cannot be unpacked after all, what it left is removed and
 * initdb makes the cluster instead.
 */
export async function createPGlite(dataDir: string, template?: string): Promise<PGlite> {
  mkdirSync(dirname(dataDir), { recursive: true });
  const compiled = (await compiledEngine()) ?? {};
  // Only a folder with nothing in it yet: a half-made cluster left by a crash is PGlite's to judge.
  const fresh = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  const from = fresh ? (template ?? defaultTemplate()) : undefined;
  if (from !== undefined) {
    const copy = await usableTemplate(from);
    if (copy) {
      try {
        return await PGlite.create(dataDir, { ...compiled, loadDataDir: copy });
      } catch {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  return PGlite.create(dataDir, compiled);
}

/** The copy at `path`, made (again) when it is missing or not whole; undefined when it cannot be made (initdb then). */
async function usableTemplate(path: string): Promise<Blob | undefined> {
  const seen = statOf(path);
  const copy = readTemplate(path);
  if (copy) return copy;
  if (seen) {
    if (!seen.isFile()) return undefined; // a FIFO, a device, a folder: not ours to replace
    discard(path, seen.ino);
  }
  try {
    return readTemplate(await ensureTemplate(path));
  } catch {
    return undefined;
  }
}
