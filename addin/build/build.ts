import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions as EsbuildOptions, type Plugin } from 'esbuild';
import { generateCustomFunctionsMetadata } from 'custom-functions-metadata';
import { rewriteManifest, DEFAULT_ORIGIN } from './manifest';
import { localiseManifest } from './manifest-locales';
import { localisedMetadataFiles } from './localised-metadata';
import { ADDIN_DIR } from '../paths';
import { msalConfig, resolveSignIn, withWebApplicationInfo, type BuildSignIn } from './sign-in-config';
import { versionFiles } from './versioned-files';
import { packageRoot } from '../../src/package-root';
import { helpPage } from './help-page';

export { ADDIN_DIR };
export const FUNCTIONS_SOURCE = path.join(ADDIN_DIR, 'src/functions/functions.ts');
export const MANIFEST_SOURCE = path.join(ADDIN_DIR, '..', 'manifest.xml');

export interface BuildOptions {
  /** Where the add-in is served from; every manifest URL starts with it. */
  origin?: string;
  /** Added to the manifest's page URL so the page can present it to the host (see docs/addin.md). */
  deploymentKey?: string;
  /** Entra ID sign-in (ADDIN_AUTH_CLIENT_ID, ADDIN_AUTH_TENANT): auth-config.json and the manifest's WebApplicationInfo. */
  signIn?: BuildSignIn;
  outDir?: string;
  minify?: boolean;
  /** The release label the pane shows (default the package's version). */
  release?: string;
}

export interface BuildResult {
  outDir: string;
  origin: string;
  /** Function ids in functions.json, in order. */
  functionIds: string[];
  /** id → exported function name, as the bundle associates them. */
  associations: Record<string, string>;
  functionsBytes: number;
  functionsGzipBytes: number;
  /** The release label baked into the bundles. */
  release: string;
  /** The build's content version: its service worker's cache is named by it (versioned-files.ts). */
  version: string;
  /** The paths the service worker keeps for offline opens. */
  offlineFiles: string[];
}

/** The metadata tool reports problems in `errors` and still resolves (its CLI even exits 0): treat any as fatal. */
export class MetadataError extends Error {
  override name = 'MetadataError';
}

export async function generateMetadata(source = FUNCTIONS_SOURCE): Promise<{ json: string; associations: Record<string, string> }> {
  const result = await generateCustomFunctionsMetadata(source, false);
  if (result.errors.length > 0) {
    throw new MetadataError(`custom-functions-metadata found ${result.errors.length} problem(s) in ${path.relative(process.cwd(), source)}:\n  ${result.errors.join('\n  ')}`);
  }
  if (!result.metadataJson) throw new MetadataError(`custom-functions-metadata found no @customfunction in ${source}.`);
  const associations: Record<string, string> = {};
  for (const a of result.associate) associations[a.id] = a.functionName;
  return { json: result.metadataJson, associations };
}

/** The functions entry: the module's exports, each associated with its metadata id. */
export function associationsEntry(associations: Record<string, string>): string {
  const pairs = Object.entries(associations).map(([id, fn]) => `  ${JSON.stringify(id)}: functions.${fn},`);
  return [`import * as functions from './functions';`, `import { registerFunctions } from './entry';`, `registerFunctions({`, ...pairs, `});`, ''].join('\n');
}

/**
 * zod exposes every one of its ~50 message locales through the `locales` namespace, which
 * defeats tree-shaking; the add-in only ever uses English (zod's default), so the bundles get
 * a `locales` that holds English alone. Saves about a third of the functions bundle.
 */
const englishOnlyZodLocales: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)) return undefined;
      return { path: path.join(args.resolveDir, '..', 'locales', 'en-only.js'), namespace: 'zod-locales' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};`,
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

async function copyDir(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const name of await fs.readdir(from)) await fs.copyFile(path.join(from, name), path.join(to, name));
}

/**
 * Builds into a fresh folder beside `outDir` and swaps it in only when everything is written,
 * so a build that fails (a metadata error, a bundling error, a bad origin or key) leaves the
 * previous build whole and no half-built folder behind.
 */
export async function buildAddin(options: BuildOptions = {}): Promise<BuildResult> {
  const outDir = path.resolve(options.outDir ?? path.join(ADDIN_DIR, 'dist'));
  await fs.mkdir(path.dirname(outDir), { recursive: true });
  const staging = await fs.mkdtemp(path.join(path.dirname(outDir), `.${path.basename(outDir)}.building-`));
  try {
    const result = await buildInto(staging, options);
    await swapIn(staging, outDir);
    return { ...result, outDir };
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true });
    throw err;
  }
}

/** Replaces `outDir` by `staging` with renames (the old build is removed only once the new one is in place). */
async function swapIn(staging: string, outDir: string): Promise<void> {
  const old = `${staging}.old`;
  let moved = false;
  try {
    await fs.rename(outDir, old);
    moved = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    await fs.rename(staging, outDir);
  } catch (err) {
    if (moved) await fs.rename(old, outDir);
    throw err;
  }
  if (moved) await fs.rm(old, { recursive: true, force: true });
}

async function buildInto(outDir: string, options: BuildOptions): Promise<BuildResult> {
  const origin = (options.origin ?? DEFAULT_ORIGIN).replace(/\/+$/, '');
  const minify = options.minify ?? true;
  // The manifest first: a bad origin or deployment key fails before anything is bundled.
  const signIn = options.signIn ? resolveSignIn(options.signIn, origin) : undefined;
  const rewritten = localiseManifest(rewriteManifest(await fs.readFile(MANIFEST_SOURCE, 'utf8'), { origin, deploymentKey: options.deploymentKey }), origin);
  const manifest = signIn ? withWebApplicationInfo(rewritten, signIn) : rewritten;
  const { json, associations } = await generateMetadata();
  // Entity values (SVC.ASSET's cards) and formatted numbers from custom functions need this flag
  // in the metadata; custom-functions-metadata does not write it.
  const metadata = { allowCustomDataForDataTypeAny: true, ...(JSON.parse(json) as { functions: { id: string; parameters: { name: string }[] }[] }) };
  await fs.writeFile(path.join(outDir, 'functions.json'), JSON.stringify(metadata, null, 2));
  // Excel's localised metadata: one file per display language the manifest points at (manifest-locales.ts).
  for (const [name, text] of localisedMetadataFiles(metadata)) await fs.writeFile(path.join(outDir, name), text);

  const release = options.release ?? (await packageVersion());
  const common = { ...bundleOptions(minify), define: { __SVC_ADDIN_RELEASE__: JSON.stringify(release) } };
  await build({
    ...common,
    stdin: { contents: associationsEntry(associations), resolveDir: path.join(ADDIN_DIR, 'src/functions'), sourcefile: 'functions-entry.ts', loader: 'ts' },
    outfile: path.join(outDir, 'functions.js'),
  });
  await build({ ...common, entryPoints: [path.join(ADDIN_DIR, 'src/taskpane/taskpane.ts')], outfile: path.join(outDir, 'taskpane.js') });
  await build({ ...common, entryPoints: [path.join(ADDIN_DIR, 'src/commands/commands.ts')], outfile: path.join(outDir, 'commands.js') });

  for (const page of ['taskpane.html', 'taskpane.css']) {
    await fs.copyFile(path.join(ADDIN_DIR, 'src/taskpane', page), path.join(outDir, page));
  }
  // The help page in every language, its functions from the metadata (help-page.ts).
  await fs.writeFile(path.join(outDir, 'help.html'), helpPage(await fs.readFile(path.join(ADDIN_DIR, 'src/taskpane/help.html'), 'utf8'), metadata.functions));
  await copyDir(path.join(ADDIN_DIR, 'assets'), path.join(outDir, 'assets'));
  await fs.writeFile(path.join(outDir, 'manifest.xml'), manifest);
  await fs.writeFile(path.join(outDir, 'auth-config.json'), JSON.stringify(msalConfig(signIn), null, 2));
  // Last: hashed names, the pages pointed at them, and sw.js listing what this version is.
  const { version, files } = await versionFiles(outDir, minify);

  const bundle = await fs.readFile(path.join(outDir, 'functions.js'));
  const result: BuildResult = {
    outDir,
    origin,
    functionIds: (JSON.parse(json) as { functions: { id: string }[] }).functions.map((f) => f.id),
    associations,
    functionsBytes: bundle.length,
    functionsGzipBytes: gzipSync(bundle).length,
    release,
    version,
    offlineFiles: files.map(([p]) => p),
  };
  await fs.writeFile(path.join(outDir, 'build-info.json'), JSON.stringify({ ...result, outDir: undefined, offlineFiles: undefined, built_at: new Date().toISOString() }, null, 2));
  return result;
}

async function packageVersion(): Promise<string> {
  const pkg = JSON.parse(await fs.readFile(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unversioned';
}

/**
 * What every browser bundle is built with. keepNames: errors are told apart by class name
 * (ConnectionError, AbortedError…) in cells, logs and toJSON; minified, they would read "n".
 */
export function bundleOptions(minify: boolean): EsbuildOptions {
  return { bundle: true, format: 'iife', platform: 'browser', target: 'es2020', minify, keepNames: true, sourcemap: false, legalComments: 'none', logLevel: 'silent', plugins: [englishOnlyZodLocales] };
}
