/**
 * The reports of one run's folder, as review and approval see them: one entry per report (a
 * portfolio's files share a stem, "okafor-household-2026-10-31.pdf", ".json", …), read from the
 * manifest's file list and the report's JSON (the one format that carries every figure a reviewer
 * checks). Tolerant of older schemas: only the fields review needs are read.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../run/exit-codes';
import { readManifest, reportStem, type RunManifest } from '../run-manifest';

const ReviewedReport = z.object({
  portfolio: z.object({ name: z.string() }),
  as_of: z.string(),
  currency: z.string(),
  audience: z.enum(['client', 'internal']).optional(),
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
  report: ReviewedReport;
}

export interface RunFolder {
  dir: string;
  manifest: RunManifest;
  reports: FolderReport[];
}

/** Reads the folder's manifest and every report's JSON; a report written without JSON cannot be reviewed and is named. */
export async function readRunFolder(dir: string): Promise<RunFolder> {
  const manifest = await readManifest(dir);
  const runIds = new Set((manifest.runs ?? []).filter((r) => r.command === 'run').map((r) => r.run_id));
  const byStem = new Map<string, string[]>();
  for (const f of manifest.files) {
    // Month-end reports only: a dashboard beside them is not a client's report.
    if (f.run_id !== undefined && manifest.runs && !runIds.has(f.run_id)) continue;
    const stem = reportStem(f.name);
    byStem.set(stem, [...(byStem.get(stem) ?? []), f.name].sort());
  }
  const reports: FolderReport[] = [];
  for (const [stem, files] of [...byStem].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const json = files.find((f) => f === `${stem}.json`);
    if (!json) throw new UsageError(`${stem}: no JSON report in ${dir}; review reads each report's figures from its JSON (run with --formats including json)`);
    let doc: unknown;
    try {
      doc = JSON.parse(await readFile(path.join(dir, json), 'utf8'));
    } catch (e) {
      throw new UsageError(`${json}: cannot be read as JSON: ${(e as Error).message}`);
    }
    const parsed = ReviewedReport.safeParse(doc);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UsageError(`${json}: not a svc-report portfolio report: ${issue.path.join('.') || 'top level'}: ${issue.message}`);
    }
    reports.push({ stem, portfolio: parsed.data.portfolio.name, audience: parsed.data.audience ?? 'client', files, report: parsed.data });
  }
  if (reports.length === 0) throw new UsageError(`${dir}: its manifest lists no month-end report`);
  return { dir, manifest, reports };
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
