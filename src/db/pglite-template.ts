import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { packageRoot } from '../package-root';

/**
 * A fresh embedded database starts from a copy of an empty one made once, not from initdb.
 *
 * Why: PGlite's initdb is the largest single cost of a first run (about 6 s of CPU on two cores,
 * measured for issue 34), paid by every new database folder: a newcomer's first `npm run demo`,
 * every test that records a month-end. Unpacking the same empty cluster from a tarball PGlite
 * itself wrote (dumpDataDir, loadDataDir) takes under 2 s. The copy is made at build time
 * (`npm run build`, which `npm install` runs) under the package's .cache/, keyed by the PGlite
 * version that wrote it, so an upgrade never opens a cluster of another version. Where there is
 * none (an installed package, whose build ran elsewhere) a folder is created by initdb as before.
 * The copy holds no schema: migrations run on open as for any folder.
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

/** Where the empty cluster for the installed PGlite is kept. */
export function templatePath(root: string = packageRoot()): string {
  return join(root, '.cache', `pglite-empty-${pgliteVersion()}.tar.gz`);
}

/** Writes the empty cluster if it is not there yet; returns its path. Safe to run from two processes at once. */
export async function ensureTemplate(path: string = templatePath()): Promise<string> {
  if (existsSync(path)) return path;
  const pg = await PGlite.create();
  try {
    const dump = await pg.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    mkdirSync(dirname(path), { recursive: true });
    // Written beside it, then renamed: a reader sees the whole file or none.
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  } finally {
    await pg.close();
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

/** The empty cluster, or undefined when there is none usable (then PGlite runs initdb). */
export function readTemplate(path: string): Blob | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size === 0 || st.size > MAX_TEMPLATE_BYTES) return undefined;
    return new Blob([readFileSync(path)]);
  } catch {
    return undefined;
  }
}

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
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })().catch(() => undefined);
  return engine;
}

/**
 * Opens PGlite on `dataDir`. A folder that holds no cluster yet is filled from the empty copy;
 * if that copy cannot be unpacked, what it left is removed and initdb makes the cluster instead.
 */
export async function createPGlite(dataDir: string, template?: string): Promise<PGlite> {
  mkdirSync(dirname(dataDir), { recursive: true });
  // Only a folder with nothing in it yet: a half-made cluster left by a crash is PGlite's to judge.
  const fresh = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  const from = fresh ? (template ?? defaultTemplate()) : undefined;
  const copy = from === undefined ? undefined : readTemplate(from);
  const compiled = (await compiledEngine()) ?? {};
  if (copy) {
    try {
      return await PGlite.create(dataDir, { ...compiled, loadDataDir: copy });
    } catch {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return PGlite.create(dataDir, compiled);
}
