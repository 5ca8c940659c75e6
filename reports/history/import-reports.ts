import { readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { finishRun, monthEnds, recordMonthEnd, recordRun, type Database } from '../../src/db';
import { InputError } from '../../src/holdings/types';
import { resolveManifestKey, type ManifestKey } from '../manifest-key';
import { MANIFEST_FILE, ManifestError, readManifest } from '../run-manifest';
import { verifyDirectory } from '../verify';
import { describeSignature } from '../verify-signature';
import { valueProblem } from './import-ranges';
import { formatMoney } from '../writers/text-format';
import { monthEndOf } from './report-month-end';
import { readReportFolder, type ReportFile } from './read-reports';

export interface ImportSummary {
  /** Month-ends recorded, and how many of them replaced one already recorded. */
  imported: number;
  replaced: number;
  portfolios: number;
  skipped: number;
  /** Files meant to be portfolio reports that could not be read (each named on stderr). */
  malformed: number;
  runId: number;
}

export interface ImportIo {
  /** One line per month-end recorded (stdout). */
  out(line: string): void;
  /** Notices: files skipped, malformed reports (stderr). */
  say(line: string): void;
}

/**
 * Every folder's JSON files, read before the database is touched: a folder that cannot be read,
 * does not verify against its manifest (verify's own check: every listed file as the run wrote
 * it, the manifest's signature when a key is configured, no JSON report it does not list), or
 * holds a report whose values are out of range (import-ranges.ts) stops the import, naming the
 * folder, with nothing recorded.
 */
export async function readFolders(folders: readonly string[], opts: { config?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ReportFile[]> {
  const key = resolveManifestKey({ config: opts.config }, opts.env ?? process.env);
  const all: ReportFile[] = [];
  for (const dir of folders) {
    await verifyFolder(dir, key);
    const files = await readReportFolder(dir);
    for (const f of files) {
      if (f.kind !== 'report') continue;
      const problem = valueProblem(f.report);
      if (problem) throw new InputError(`${dir} refused, nothing imported: ${basename(f.file)}: ${problem}`);
    }
    all.push(...files);
  }
  return all;
}

async function verifyFolder(dir: string, key: ManifestKey | undefined): Promise<void> {
  // A folder that is not there, or holds no JSON at all: readReportFolder names it in its own words (only names are read here).
  const names = await readdir(dir).catch(() => undefined);
  if (!names) return;
  let result: Awaited<ReturnType<typeof verifyDirectory>>;
  try {
    result = await verifyDirectory(dir, { key });
  } catch (e) {
    if (!(e instanceof ManifestError)) throw e;
    if (e.missing && !names.some((n) => n.endsWith('.json') && !n.startsWith('.'))) return;
    throw new InputError(`${dir} refused, nothing imported: ${e.missing ? `it has no ${MANIFEST_FILE}, so its reports cannot be verified (import the folders a run wrote)` : e.message}`);
  }
  // With a key configured, an unsigned manifest (or one signed otherwise) is refused, not warned about.
  const signature = describeSignature(result.signature, key !== undefined);
  const unlistedReports = result.unlisted.filter((n) => n.endsWith('.json'));
  const problems = [
    ...result.changed.map((n) => `${n} changed since the run wrote it`),
    ...result.missing.map((n) => `${n} missing`),
    ...result.refused.map((f) => `${f.name} ${f.why}`),
    ...unlistedReports.map((n) => `${n} is not in its manifest`),
    ...(signature.passed ? [] : [signature.line]),
  ];
  if (problems.length > 0) throw new InputError(`${dir} refused, nothing imported: it does not verify (${problems.join('; ')}); run svc-report verify ${dir}`);
}

/**
 * Records each portfolio report as its portfolio's month-end, under one run. Reports are taken
 * oldest first, so each month's net flows count the purchases since the month-end recorded
 * before it (in the database already, or imported just before). Re-importing replaces.
 */
export async function importReports(db: Database, folders: readonly string[], files: readonly ReportFile[], command: string, toolVersion: string, io: ImportIo): Promise<ImportSummary> {
  for (const f of files) {
    if (f.kind === 'skipped') io.say(`Skipped ${f.file}: ${f.why}.`);
    if (f.kind === 'malformed') io.say(`Not imported: ${f.file} is not a readable portfolio report: ${f.problem}.`);
  }
  const reports = files.flatMap((f) => (f.kind === 'report' ? [f] : [])).sort((a, b) => a.report.as_of.localeCompare(b.report.as_of) || a.file.localeCompare(b.file));
  const runId = await recordRun(db, { toolVersion, serviceUrl: await serviceOf(folders), sandbox: reports.some((r) => r.report.sandbox === true), command });
  let replaced = 0;
  // Each portfolio's recorded month-ends read once (a query costs PGlite ~10 ms of CPU; the demo imports 72 month-ends), then kept up to date as this import records.
  const recorded = new Map<string, Set<string>>();
  for (const name of new Set(reports.map((r) => r.report.portfolio.name))) recorded.set(name, new Set((await monthEnds(db, name)).map((m) => m.asOf)));
  for (const { file, report } of reports) {
    const asOfs = recorded.get(report.portfolio.name)!;
    const earlier = [...asOfs].filter((d) => d < report.as_of).sort().at(-1);
    const input = monthEndOf(file, report, runId, earlier);
    const rec = await recordMonthEnd(db, input);
    asOfs.add(report.as_of);
    if (rec.replaced) replaced++;
    io.out(
      `${input.portfolio} ${input.asOf}: ${formatMoney(input.value, input.currency)}, net flows ${formatMoney(input.netFlows, input.currency)}, ${input.holdings.length} holding${input.holdings.length === 1 ? '' : 's'}${rec.replaced ? ' (replaced the month recorded before)' : ''}`,
    );
  }
  await finishRun(db, runId);
  return {
    imported: reports.length,
    replaced,
    portfolios: new Set(reports.map((r) => r.report.portfolio.name)).size,
    skipped: files.filter((f) => f.kind === 'skipped').length,
    malformed: files.filter((f) => f.kind === 'malformed').length,
    runId,
  };
}

/**
 * The service the reports were valued against, as the folders' manifests record it (reports
 * do not carry the address): the embedded sandbox when none was named, several joined.
 */
async function serviceOf(folders: readonly string[]): Promise<string> {
  const named = new Set<string>();
  for (const dir of folders) {
    const manifest = await readManifest(dir).catch(() => undefined);
    if (manifest) named.add(manifest.service.base_url ?? (manifest.service.sandbox ? 'embedded sandbox' : 'unknown'));
  }
  return named.size === 0 ? 'unknown (imported reports without a manifest)' : [...named].sort().join(', ');
}
