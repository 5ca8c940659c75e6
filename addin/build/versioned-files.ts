import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { hashedName, HASH_LENGTH, SERVICE_WORKER_PATH, VERSION_META } from '../contract/page-cache';
import { ADDIN_DIR } from '../paths';

/** The pages Excel loads by the fixed URLs manifest.xml names (Shared.Url, SupportUrl): never renamed, served no-cache. */
export const ENTRY_PAGES = ['taskpane.html', 'help.html'];
/** Files the pages load: renamed with their content hash, served immutable. */
const PAGE_ASSETS = ['functions.js', 'commands.js', 'taskpane.js', 'taskpane.css', 'assets/icon-32.png'];
/** Files Excel itself asks for by the manifest's fixed URLs: kept under those names too. */
const MANIFEST_NAMED = new Set(['functions.js', 'assets/icon-32.png']);

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export interface Versioned {
  /** The build's version: a hash over every file the pages and the worker use. */
  version: string;
  /** What the worker keeps, as its install checks it: [path, sha-256] (pages: [path, null], checked by their version tag). */
  files: [string, string | null][];
}

/**
 * Gives the built bundles, stylesheet and pane icon content-hashed names, points the entry
 * pages at them, stamps each page with the build's version and writes sw.js with the list of
 * files that version consists of. Run last: everything it lists must already be in `outDir`.
 */
export async function versionFiles(outDir: string, minify: boolean): Promise<Versioned> {
  const renames = new Map<string, string>();
  for (const file of PAGE_ASSETS) {
    const from = path.join(outDir, file);
    const to = hashedName(file, sha256(await fs.readFile(from)));
    if (MANIFEST_NAMED.has(file)) await fs.copyFile(from, path.join(outDir, to));
    else await fs.rename(from, path.join(outDir, to));
    renames.set(file, to);
  }
  const pages = new Map<string, string>();
  for (const page of ENTRY_PAGES) pages.set(page, pointAtHashedNames(page, await fs.readFile(path.join(outDir, page), 'utf8'), renames));

  const kept = (await listFiles(outDir)).filter((f) => !ENTRY_PAGES.includes(f) && isKeptForOffline(f));
  const hashes = new Map<string, string>();
  for (const f of kept) hashes.set(f, sha256(await fs.readFile(path.join(outDir, f))));
  const version = sha256([...hashes].map(([f, h]) => `${f} ${h}`).concat([...pages].map(([f, text]) => `${f} ${sha256(text)}`)).join('\n')).slice(0, HASH_LENGTH);

  for (const [page, text] of pages) await fs.writeFile(path.join(outDir, page), stampVersion(page, text, version));
  const files: [string, string | null][] = [...ENTRY_PAGES.map((p): [string, null] => [`/${p}`, null]), ...[...hashes].map(([f, h]): [string, string] => [`/${f}`, h])];
  await build({
    entryPoints: [path.join(ADDIN_DIR, 'src/service-worker/worker.ts')],
    outfile: path.join(outDir, SERVICE_WORKER_PATH.slice(1)),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify,
    legalComments: 'none',
    logLevel: 'silent',
    define: { __SVC_ADDIN_VERSION__: JSON.stringify(version), __SVC_ADDIN_FILES__: JSON.stringify(files) },
  });
  return { version, files };
}

/**
 * Files of the build the worker keeps: what the pages and Excel load; not the manifest, settings
 * or build record, and not the fixed-name functions.js (only Excel's JavaScript-only runtime
 * loads it, outside any browser page and so outside the worker; the page loads the hashed copy).
 */
function isKeptForOffline(file: string): boolean {
  return file !== 'functions.js' && (/\.(js|css|png|svg)$/.test(file) || file === 'functions.json');
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.push(path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  }
  return out.sort();
}

/** Each `src="X"`/`href="X"` of a renamed file becomes its hashed name; a page whose references changed shape fails the build rather than load stale names. */
function pointAtHashedNames(page: string, html: string, renames: Map<string, string>): string {
  let out = html;
  for (const [from, to] of renames) {
    for (const attr of ['src', 'href']) out = out.split(`${attr}="${from}"`).join(`${attr}="${to}"`);
  }
  const left = [...renames.keys()].filter((f) => out.includes(`"${f}"`));
  if (left.length > 0) throw new Error(`${page} still names ${left.join(', ')} without its content hash: reference them as src="…" or href="…".`);
  return out;
}

function stampVersion(page: string, html: string, version: string): string {
  const charset = '<meta charset="utf-8">';
  if (!html.includes(charset)) throw new Error(`${page} has no ${charset} to put its version after.`);
  return html.replace(charset, `${charset}\n  <meta name="${VERSION_META}" content="${version}">`);
}
