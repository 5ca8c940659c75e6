/**
 * manifest.json beside a run's reports: what was produced (each file's SHA-256 and size), from
 * what (each input file's SHA-256), against which service (base URL without credentials), as of
 * which valuation date, by which tool version. `svc-report verify <dir>` (verify.ts) checks a
 * folder against it. No wall-clock time unless the run had one: with SOURCE_DATE_EPOCH set, two
 * runs on the same input write the same manifest, byte for byte.
 */
import { urlAddress } from '../src/redact-url';
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../src/package-root';
import { fixedGeneratedAt, resolveSettings, type CommonFlags } from './config';
import { writeAtomically } from './writers/atomic-write';
import { resolveManifestKey, type ManifestKey } from './manifest-key';
import { checkManifestSignature, signManifest } from './manifest-signature';
import { readRegularFile, UnreadableFile } from '../src/regular-file';
import { ApprovalRecord } from './signoff/approval-record';

export const MANIFEST_FILE = 'manifest.json';
/** 2: every file names the run that wrote it, and `runs` lists those runs (1 had only the latest run's fields). */
export const MANIFEST_VERSION = 2;

const FileEntry = z.object({
  name: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().min(0),
  /** The run that wrote it (runs[].run_id); absent in a version 1 manifest. */
  run_id: z.string().optional(),
});
export type FileEntry = z.infer<typeof FileEntry>;

const Service = z.object({
  /** Scheme, host, port and path only: user, password, query and fragment are dropped. Null: the embedded sandbox. */
  base_url: z.string().nullable(),
  sandbox: z.boolean(),
});

/** What one command's run into the folder was. */
const RunFields = z.object({
  command: z.string(),
  /** When the run finished: SOURCE_DATE_EPOCH when set (then equal to the reports' generated_at). */
  generated_at: z.string(),
  /** SOURCE_DATE_EPOCH when it was set (reproducible runs), else null. */
  source_date_epoch: z.number().int().nullable(),
  service: Service,
  /** The day the valuations are as of (YYYY-MM-DD). */
  valuations_as_of: z.string(),
  inputs: z.array(FileEntry),
});

/** One command's run into the folder. */
const RunRecord = z.object({
  /** From the command, its time, its as-of day and its inputs: the same run gives the same id. */
  run_id: z.string(),
  ...RunFields.shape,
});
export type RunRecord = z.infer<typeof RunRecord>;

export const RunManifest = z.object({
  manifest_version: z.union([z.literal(1), z.literal(MANIFEST_VERSION)]),
  tool: z.object({ name: z.string(), version: z.string() }),
  /**
   * The folder's record of the month-end: the fields of its latest `run` (a dashboard written
   * beside it adds its own entry to `runs` and never replaces these); a folder with only a
   * dashboard describes the dashboard.
   */
  ...RunFields.shape,
  /** Every run whose files are listed, oldest first (version 2). */
  runs: z.array(RunRecord).optional(),
  /** Files in the folder, by name, sorted. */
  files: z.array(FileEntry),
  /** Absent: unsigned (no manifest key configured). manifest-signature.ts. */
  signature: z.object({ alg: z.string().min(1), key_id: z.string(), value: z.string() }).optional(),
  /** Reviewers' approvals and rejections, oldest first (issue 25; `svc-report approve`/`reject`). Kept when a later run rewrites the manifest. */
  approvals: z.array(ApprovalRecord).optional(),
  /** Delivery folders (absolute) `approve --deliver` copied this folder's client PDFs to: `reject` takes a rejected report's copy back from each at once. Kept like approvals. */
  deliveries: z.array(z.string()).optional(),
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
  // The one redaction for every URL (src/redact-url.ts): whatever characters a password holds.
  return url ? urlAddress(url) : null;
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
  /** The firm's manifest key: the manifest is signed with it; undefined: written unsigned. */
  key?: ManifestKey;
}

async function entries(paths: readonly string[]): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  for (const p of paths) out.push({ name: path.basename(p), ...(await sha256File(p)) });
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A manifest is a few hundred bytes per file: this is far past any folder's, and bounds what a planted one costs to read. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
const MANIFEST_READ_MS = 60_000;

export async function readManifest(dir: string): Promise<RunManifest> {
  return (await readManifestDocument(dir)).manifest;
}

/** The manifest, and the document as its file holds it (what its signature is over: nothing dropped by parsing). */
export async function readManifestDocument(dir: string): Promise<{ manifest: RunManifest; doc: Record<string, unknown> }> {
  const file = path.join(dir, MANIFEST_FILE);
  let doc: unknown;
  try {
    const bytes = await readRegularFile(file, { maxBytes: MAX_MANIFEST_BYTES, deadline: Date.now() + MANIFEST_READ_MS });
    if (bytes.length === 0 || bytes.toString('utf8').trim() === '') throw new ManifestError(`${file} is empty: it vouches for nothing`);
    doc = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    if (e instanceof ManifestError) throw e;
    if (e instanceof UnreadableFile && e.kind === 'missing') throw new ManifestError(`cannot read ${file}: there is none`, { missing: true });
    throw new ManifestError(`cannot read ${file}: ${e instanceof UnreadableFile ? e.message : `not JSON (${(e as Error).message})`}`);
  }
  const parsed = RunManifest.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ManifestError(`${file} is not a svc-report manifest: ${issue.path.join('.') || 'top level'}: ${issue.message}`);
  }
  return { manifest: parsed.data, doc: doc as Record<string, unknown> };
}

export class ManifestError extends Error {
  override name = 'ManifestError';
  /** There is no manifest at all (a folder no run wrote), rather than one that is empty, malformed or not a file. */
  readonly missing: boolean;
  constructor(message: string, opts: { missing?: boolean } = {}) {
    super(message);
    this.missing = opts.missing ?? false;
  }
}

/**
 * "client-2026-10-31.pdf" -> "client-2026-10-31": a portfolio's reports share it, one per format,
 * and so does the CSV format's second file, "client-2026-10-31-realised-gains.csv" (issue 23), so
 * a rerun without it (no ledger, or another format) removes an earlier run's.
 */
export const reportStem = (name: string) => name.replace(/\.[^.]+$/, '').replace(/(\d{4}-\d{2}-\d{2})-realised-gains$/, '$1');

function runIdOf(m: ManifestInput, inputs: readonly FileEntry[]): string {
  const h = createHash('sha256').update(JSON.stringify([m.command, m.generatedAt, m.asOf, inputs.map((i) => i.sha256)]));
  return h.digest('hex').slice(0, 16);
}

export interface ManifestWritten {
  path: string;
  /** Files an earlier run wrote for the same reports in formats this run did not write: removed, so a folder never mixes two runs' versions of one report. */
  removed: string[];
  /** Files an earlier manifest listed that this signed one does not, because the earlier one did not verify under the key (unsigned, or signed otherwise). */
  notCarried: string[];
}

/** Manifest writes in flight in this process, by folder: each reads the last one's result (the demo's month-end and dashboard share a folder). */
const writing = new Map<string, Promise<unknown>>();

/**
 * Writes outDir/manifest.json for the files this run wrote. Each file names the run that wrote
 * it. A folder that already has a manifest keeps the entries of its other files (a dashboard
 * beside a month-end's reports, another portfolio's reports); the month-end's record (the
 * top-level fields) is the latest `run`, never a dashboard. A `run` that writes a report in
 * fewer formats than an earlier run into the folder removes the earlier run's other formats of
 * that report (a json-only rerun beside last week's PDF would leave the two disagreeing), and
 * returns their names so the command can say so.
 */
export function writeManifest(outDir: string, m: ManifestInput): Promise<ManifestWritten> {
  const before = writing.get(outDir) ?? Promise.resolve();
  const next = before.catch(() => {}).then(() => writeManifestNow(outDir, m));
  const settled = next.catch(() => {});
  writing.set(outDir, settled);
  void settled.then(() => writing.get(outDir) === settled && writing.delete(outDir));
  return next;
}

async function writeManifestNow(outDir: string, m: ManifestInput): Promise<ManifestWritten> {
  const epoch = m.env.SOURCE_DATE_EPOCH && /^\d+$/.test(m.env.SOURCE_DATE_EPOCH) ? Number(m.env.SOURCE_DATE_EPOCH) : null;
  const inputs = await entries(m.inputs);
  const record: RunRecord = {
    run_id: runIdOf(m, inputs),
    command: m.command,
    generated_at: m.generatedAt,
    source_date_epoch: epoch,
    service: { base_url: publicBaseUrl(m.baseUrl), sandbox: m.sandbox },
    valuations_as_of: m.asOf,
    inputs,
  };
  const files = (await entries(m.files.filter((f) => path.basename(f) !== MANIFEST_FILE))).map((f) => ({ ...f, run_id: record.run_id }));
  let earlier: RunManifest | undefined;
  let notCarried: string[] = [];
  try {
    const read = await readManifestDocument(outDir);
    earlier = read.manifest;
    // Signing vouches for every entry: an earlier manifest's entries are carried on only when it verifies under the same key.
    if (m.key && checkManifestSignature(read.doc, m.key).state !== 'valid') {
      const writtenNow = new Set(files.map((f) => f.name));
      notCarried = earlier.files.map((f) => f.name).filter((n) => !writtenNow.has(n));
      earlier = undefined;
    }
  } catch {
    earlier = undefined;
  }
  const earlierRuns = earlier ? runsOf(earlier) : [];
  const written = new Set(files.map((f) => f.name));
  const stems = new Set(files.map((f) => reportStem(f.name)));
  const commandOf = new Map(earlierRuns.map((r) => [r.run_id, r.command]));
  const removed: string[] = [];
  const kept: FileEntry[] = [];
  for (const f of earlier?.files ?? []) {
    if (written.has(f.name)) continue;
    const runId = f.run_id ?? VERSION_1_RUN;
    const byRun = commandOf.get(runId);
    if (m.command === 'run' && byRun === 'run' && stems.has(reportStem(f.name))) {
      await fs.rm(path.join(outDir, path.basename(f.name)), { force: true });
      removed.push(f.name);
    } else kept.push({ ...f, run_id: runId });
  }
  const all = [...files, ...kept].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const referenced = new Set(all.map((f) => f.run_id));
  const runs = [...earlierRuns.filter((r) => referenced.has(r.run_id) && r.run_id !== record.run_id), record];
  const monthEnd = [...runs].reverse().find((r) => r.command === 'run') ?? record;
  const { run_id: _monthEndId, ...monthEndFields } = monthEnd;
  const unsigned: RunManifest = { manifest_version: MANIFEST_VERSION, tool: { name: 'svc-report', version: toolVersion() }, ...monthEndFields, runs, files: all, ...(earlier?.approvals ? { approvals: earlier.approvals } : {}), ...(earlier?.deliveries ? { deliveries: earlier.deliveries } : {}) };
  return { path: await saveManifest(outDir, unsigned, m.key), removed, notCarried };
}

/**
 * Writes a manifest whole, atomically (a reader never sees half of one), signed under the firm's
 * key when one is configured (any signature it carried is replaced); its path.
 */
export async function saveManifest(outDir: string, manifest: RunManifest, key?: ManifestKey): Promise<string> {
  const { signature: _old, ...unsigned } = manifest;
  const target = path.join(outDir, MANIFEST_FILE);
  const content = key ? signManifest(unsigned, key) : unsigned;
  await writeAtomically(target, (temp) => fs.writeFile(temp, JSON.stringify(content, null, 2) + '\n'));
  return target;
}

/** The run id given to a version 1 manifest's run and its files. */
const VERSION_1_RUN = 'version-1';

/** The runs a manifest records; a version 1 manifest's one run is its top-level fields, and its files carry no run id. */
export function runsOf(m: RunManifest): RunRecord[] {
  if (m.runs) return m.runs;
  const { manifest_version: _version, tool: _tool, runs: _runs, files: _files, approvals: _approvals, deliveries: _deliveries, ...fields } = m;
  return [{ run_id: VERSION_1_RUN, ...fields }];
}

/**
 * Writes the manifest for a command's run from its command-line options (the settings are
 * resolved as the command resolved them): the hook the CLI calls once the reports are written.
 */
export async function recordRun(command: string, outDir: string, flags: CommonFlags & { manifestKey?: string }, inputs: readonly string[], files: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ManifestWritten> {
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
    key: resolveManifestKey(flags, env),
  });
}
