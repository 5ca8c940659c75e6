/**
 * The reports of one run's folder, as review and approval see them: one entry per report (a
 * portfolio's files share a stem, "okafor-household-2026-10-31.pdf", ".json", …), read from the
 * manifest's file list and the report's JSON (the one format that carries every figure a reviewer
 * checks). Tolerant of older schemas: only the fields review needs are read.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../run/exit-codes';
import { ManifestError, readManifest, reportStem, type RunManifest } from '../run-manifest';
import { readRegularFile, UnreadableFile } from '../../src/regular-file';
import { checkRunFileName } from './run-file-name';

const ReviewedReport = z.object({
  portfolio: z.object({ name: z.string() }),
  as_of: z.string(),
  currency: z.string(),
  audience: z.enum(['client', 'internal']).optional(),
  /** True when the figures come from the test sandbox (every schema writes it; absent: the manifest's run says). */
  sandbox: z.boolean().optional(),
  summary: z.object({
    current_value: z.number(),
    coverage: z.object({ not_valued_count: z.number(), carried_over_count: z.number().optional() }).optional(),
    month_on_month: z.object({ previous_as_of: z.string(), previous_value: z.number(), change: z.number(), change_percent: z.number().nullable() }).nullable().optional(),
  }),
  holdings: z.array(
    z.object({
      row: z.number().nullable().optional(),
      description: z.string().optional(),
      current_value: z.number().nullable().optional(),
      market_validated: z.boolean().nullable().optional(),
      month_on_month_change: z.number().nullable().optional(),
      month_on_month_percent: z.number().nullable().optional(),
    }),
  ),
  errors: z.array(z.object({ row: z.number().nullable(), message: z.string() })).default([]),
  analyst_notes: z.array(z.string()).default([]),
});
export type ReviewedReport = z.infer<typeof ReviewedReport>;

export interface FolderReport {
  /** The files' shared name without extension: the report's key in approvals. */
  stem: string;
  portfolio: string;
  /** A client's report (delivered and signed) or the firm's internal consolidated one. */
  audience: 'client' | 'internal';
  /** The report's files in the folder (names), sorted. */
  files: string[];
  /** Its figures come from the sandbox (test data): never approved, signed or delivered for a client without --allow-sandbox. */
  sandbox: boolean;
  report: ReviewedReport;
}

export interface RunFolder {
  dir: string;
  manifest: RunManifest;
  reports: FolderReport[];
}

/** A report's JSON is read with verify's reader within these bounds: a FIFO, a link or /dev/zero in its place is refused, never read. */
const REPORT_JSON_MAX_BYTES = 1024 ** 3;
const REPORT_JSON_READ_MS = 60_000;

/**
 * Reads the folder's manifest and every report's JSON; a report written without JSON cannot be
 * reviewed and is named. Every name the manifest lists must be a plain file name inside the
 * folder, naming a regular file or nothing (run-file-name.ts): anything else is refused before
 * a file is read, signed moved or delivered.
 */
export async function readRunFolder(dir: string): Promise<RunFolder> {
  await refuseMissingFolder(dir);
  let manifest: RunManifest;
  try {
    manifest = await readManifest(dir);
  } catch (e) {
    if (!(e instanceof ManifestError)) throw e;
    throw new UsageError(e.missing ? `${dir} is not a report folder: it has no manifest.json (give the folder a month-end run wrote)` : e.message);
  }
  for (const f of manifest.files) await checkRunFileName(dir, f.name);
  const sandboxRuns = new Set((manifest.runs ?? []).filter((r) => r.service.sandbox).map((r) => r.run_id));
  const runIds = new Set((manifest.runs ?? []).filter((r) => r.command === 'run').map((r) => r.run_id));
  const byStem = new Map<string, string[]>();
  const fromSandbox = new Map<string, boolean>();
  for (const f of manifest.files) {
    // Month-end reports only: a dashboard beside them is not a client's report.
    if (f.run_id !== undefined && manifest.runs && !runIds.has(f.run_id)) continue;
    const stem = reportStem(f.name);
    byStem.set(stem, [...(byStem.get(stem) ?? []), f.name].sort());
    const sandbox = f.run_id === undefined ? manifest.service.sandbox : sandboxRuns.has(f.run_id);
    fromSandbox.set(stem, (fromSandbox.get(stem) ?? false) || sandbox);
  }
  const reports: FolderReport[] = [];
  for (const [stem, files] of [...byStem].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const json = files.find((f) => f === `${stem}.json`);
    if (!json) throw new UsageError(`${stem}: no JSON report in ${dir}; review reads each report's figures from its JSON (run with --formats including json)`);
    const report = await readReportJson(dir, json);
    // Sandbox data when either the report or the run that wrote it says so.
    const sandbox = report.sandbox === true || (fromSandbox.get(stem) ?? false);
    reports.push({ stem, portfolio: report.portfolio.name, audience: report.audience ?? 'client', files, sandbox, report });
  }
  if (reports.length === 0) throw new UsageError(`${dir}: its manifest lists no month-end report`);
  return { dir, manifest, reports };
}

/** A folder that is not there is said as such (exit 2), not as a manifest that cannot be read. */
async function refuseMissingFolder(dir: string): Promise<void> {
  const st = await fs.stat(dir).catch((e: NodeJS.ErrnoException) => e);
  if (st instanceof Error) throw new UsageError(st.code === 'ENOENT' ? `${dir}: no such folder` : `${dir}: cannot be read (${st.code ?? 'error'})`);
  if (!st.isDirectory()) throw new UsageError(`${dir} is not a folder: give the folder a month-end run wrote`);
}

/** One report's JSON, read as a regular file only; errors name the file and what is wrong, never its content. */
async function readReportJson(dir: string, json: string): Promise<ReviewedReport> {
  let doc: unknown;
  try {
    const bytes = await readRegularFile(path.join(dir, json), { maxBytes: REPORT_JSON_MAX_BYTES, deadline: Date.now() + REPORT_JSON_READ_MS });
    doc = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    if (e instanceof UnreadableFile) throw new UsageError(`${json}: ${e.kind === 'missing' ? 'missing from the folder' : e.message}`);
    // JSON.parse's message quotes the text it choked on: not repeated.
    throw new UsageError(`${json}: not valid JSON; not a svc-report portfolio report`);
  }
  const parsed = ReviewedReport.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${json}: not a svc-report portfolio report: ${issue.path.join('.') || 'top level'}: ${issue.code === 'invalid_type' ? `must be ${issue.expected}` : 'not a value the report schema allows'}`);
  }
  return parsed.data;
}

/**
 * The reports `--portfolio NAME…` names (a portfolio's name, any case, or its report's stem);
 * all of them without. A name that matches none is an error listing what there is.
 */
export function selectReports(folder: RunFolder, names: readonly string[] | undefined): FolderReport[] {
  if (!names || names.length === 0) return folder.reports;
  const picked: FolderReport[] = [];
  for (const name of names) {
    const key = name.trim().toLowerCase();
    const match = folder.reports.find((r) => r.portfolio.toLowerCase() === key || r.stem.toLowerCase() === key);
    if (!match) throw new UsageError(`--portfolio ${JSON.stringify(name)}: no such report in ${folder.dir}; it holds ${folder.reports.map((r) => JSON.stringify(r.portfolio)).join(', ')}`);
    if (!picked.includes(match)) picked.push(match);
  }
  return picked;
}
