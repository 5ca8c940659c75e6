/**
 * manifest.json beside a run's reports: what was produced (each file's SHA-256 and size), from
 * what (each input file's SHA-256), against which service (base URL without credentials), as of
 * which valuation date, by which tool version. `svc-report verify <dir>` (verify.ts) checks a
 * folder against it. No wall-clock time unless the run had one: with SOURCE_DATE_EPOCH set, two
 * runs on the same input write the same manifest, byte for byte.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../src/package-root';
import { fixedGeneratedAt, resolveSettings, type CommonFlags } from './config';
import { writeAtomically } from './writers/atomic-write';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_VERSION = 1;

const FileEntry = z.object({ name: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().min(0) });
export type FileEntry = z.infer<typeof FileEntry>;

export const RunManifest = z.object({
  manifest_version: z.literal(MANIFEST_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  /** The command that wrote it: "run" or "dashboard". */
  command: z.string(),
  /** When the run finished: SOURCE_DATE_EPOCH when set (then equal to the reports' generated_at). */
  generated_at: z.string(),
  /** SOURCE_DATE_EPOCH when it was set (reproducible runs), else null. */
  source_date_epoch: z.number().int().nullable(),
  service: z.object({
    /** Scheme, host, port and path only: user, password, query and fragment are dropped. Null: the embedded sandbox. */
    base_url: z.string().nullable(),
    sandbox: z.boolean(),
  }),
  /** The day the valuations are as of (YYYY-MM-DD). */
  valuations_as_of: z.string(),
  inputs: z.array(FileEntry),
  /** Files in the folder, by name, sorted. */
  files: z.array(FileEntry),
});
export type RunManifest = z.infer<typeof RunManifest>;

export async function sha256File(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** A service URL fit to keep on record: never a user name, password, token in the query, or fragment. */
export function publicBaseUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

export function toolVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export interface ManifestInput {
  command: string;
  generatedAt: string;
  env: NodeJS.ProcessEnv;
  baseUrl: string | undefined;
  sandbox: boolean;
  asOf: string;
  /** Input files as given (paths). */
  inputs: readonly string[];
  /** Files the run wrote, absolute paths inside outDir. */
  files: readonly string[];
}

async function entries(paths: readonly string[]): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  for (const p of paths) out.push({ name: path.basename(p), ...(await sha256File(p)) });
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export async function readManifest(dir: string): Promise<RunManifest> {
  const file = path.join(dir, MANIFEST_FILE);
  let doc: unknown;
  try {
    doc = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is none' : (e as Error).message;
    throw new ManifestError(`cannot read ${file}: ${why}`);
  }
  const parsed = RunManifest.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ManifestError(`${file} is not a svc-report manifest: ${issue.path.join('.') || 'top level'}: ${issue.message}`);
  }
  return parsed.data;
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

/**
 * Writes outDir/manifest.json for the files this run wrote. A folder that already has a
 * manifest (a dashboard written beside a run's reports) keeps the entries of its other files,
 * so one manifest covers the folder; this run's fields describe the latest run.
 */
export async function writeManifest(outDir: string, m: ManifestInput): Promise<string> {
  const epoch = m.env.SOURCE_DATE_EPOCH && /^\d+$/.test(m.env.SOURCE_DATE_EPOCH) ? Number(m.env.SOURCE_DATE_EPOCH) : null;
  const files = await entries(m.files.filter((f) => path.basename(f) !== MANIFEST_FILE));
  let earlier: RunManifest | undefined;
  try {
    earlier = await readManifest(outDir);
  } catch {
    earlier = undefined;
  }
  const written = new Set(files.map((f) => f.name));
  const kept = (earlier?.files ?? []).filter((f) => !written.has(f.name));
  const inputs = await entries(m.inputs);
  const manifest: RunManifest = {
    manifest_version: MANIFEST_VERSION,
    tool: { name: 'svc-report', version: toolVersion() },
    command: m.command,
    generated_at: m.generatedAt,
    source_date_epoch: epoch,
    service: { base_url: publicBaseUrl(m.baseUrl), sandbox: m.sandbox },
    valuations_as_of: m.asOf,
    inputs: m.inputs.length > 0 || !earlier ? inputs : earlier.inputs,
    files: [...files, ...kept].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
  const target = path.join(outDir, MANIFEST_FILE);
  await writeAtomically(target, (temp) => fs.writeFile(temp, JSON.stringify(manifest, null, 2) + '\n'));
  return target;
}

/**
 * Writes the manifest for a command's run from its command-line options (the settings are
 * resolved as the command resolved them): the hook the CLI calls once the reports are written.
 */
export async function recordRun(command: string, outDir: string, flags: CommonFlags, inputs: readonly string[], files: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const settings = resolveSettings(flags, env);
  return writeManifest(path.resolve(outDir), {
    command,
    generatedAt: fixedGeneratedAt(env) ?? new Date().toISOString(),
    env,
    baseUrl: settings.service.baseUrl,
    sandbox: settings.service.sandbox || !settings.service.baseUrl,
    asOf: settings.asOf,
    inputs,
    files,
  });
}
