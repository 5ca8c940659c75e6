/**
 * `svc-report approve` and `reject`: a reviewer's decision on a run's reports, recorded in the
 * run's manifest (`approvals`) and, where a history database is configured, in its `approvals`
 * table. Approving with --sign first signs each client PDF (PAdES; the manifest's entry for the
 * file follows the signed bytes), so the approval covers the file the client receives. A report
 * whose files no longer match the manifest (edited since the run) is refused, not approved.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseError, openDatabase, recordApprovals, type ApprovalInput } from '../../src/db';
import { refuseEmptyFolder } from '../history/database-target';
import { historyDatabase, readConfigFile } from '../config';
import { UsageError } from '../run/exit-codes';
import { MANIFEST_FILE, readManifestDocument, saveManifest, sha256File, publicBaseUrl, type RunManifest } from '../run-manifest';
import { resolveManifestKey } from '../manifest-key';
import { checkManifestSignature } from '../manifest-signature';
import type { ApprovalRecord } from './approval-record';
import { deliver, type Delivered } from './deliver';
import { readRunFolder, selectReports, type FolderReport } from './folder-reports';
import { signingPassword } from './sign-password';
import { findSignatures } from './sign/check-signature';
import { PdfStructureError } from './sign/pdf-objects';
import { signPdfFile } from './sign/sign-pdf';
import { loadSigningKey, type SigningKey } from './sign/signing-key';
import { timestampFrom } from './sign/timestamp';

export interface DecisionOptions {
  portfolio?: string[];
  by: string;
  reason?: string;
  sign?: string;
  tsa?: string;
  /** The signature's location (default: none given). */
  location?: string;
  deliver?: string;
  db?: string;
  /** --db-wait SECONDS: how long to wait for another process holding an embedded history database. */
  dbWait?: number;
  config?: string;
  /** The firm's manifest key's file (else SVC_MANIFEST_KEY, else manifest_key_file in the config). */
  manifestKey?: string;
}

export interface DecisionOutcome {
  records: ApprovalRecord[];
  delivered?: Delivered;
  /** Where the decisions were recorded besides the manifest. */
  database?: string;
}

/** "Name <email>": a name and an address a colleague can reach. */
const BY = /^[^<>]*\S[^<>]*<[^<>@\s]+@[^<>@\s]+>$/;

export async function decide(dir: string, decision: 'approved' | 'rejected', o: DecisionOptions, log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<DecisionOutcome> {
  const by = o.by.trim();
  if (!BY.test(by)) throw new UsageError(`--by ${JSON.stringify(o.by)}: give the reviewer as "Name <email>"`);
  if (decision === 'rejected' && !o.reason?.trim()) throw new UsageError('reject needs --reason: say what is wrong, for whoever runs the month-end again');
  // A signed folder stays signed: the decision is built only on a manifest that verifies, and re-signed.
  const manifestKey = resolveManifestKey({ manifestKey: o.manifestKey, config: o.config }, env);
  const { doc } = await readManifestDocument(dir);
  // Written without the key, a signed manifest would lose its signature: refused, not downgraded.
  if (!manifestKey && doc.signature !== undefined) throw new UsageError(`${path.join(dir, MANIFEST_FILE)} is signed with the firm's manifest key: give it (--manifest-key FILE, SVC_MANIFEST_KEY or manifest_key_file in the config) so the decision keeps it signed; nothing was decided`);
  if (manifestKey) {
    const check = checkManifestSignature(doc, manifestKey);
    if (check.state !== 'valid') throw new UsageError(`${path.join(dir, MANIFEST_FILE)} does not verify under the manifest key (${check.state === 'invalid' ? check.why : check.state}): run svc-report verify; nothing was decided`);
  }
  const folder = await readRunFolder(dir);
  const chosen = selectReports(folder, o.portfolio);
  await refuseChanged(dir, folder.manifest, chosen);
  // The history database the month-end recorded into (the same resolution as `run`; --db off: none).
  const db = historyDatabase(o.db, env, readConfigFile(o.config, process.cwd()).db, process.cwd(), o.dbWait);
  // A folder with no database is a typo, not a first run: refused before anything is decided, not created.
  if (db) refuseEmptyFolder(db.target, 'nothing was decided (--db off records the decision in the manifest alone)');
  const at = new Date();
  let key: SigningKey | undefined;
  if (decision === 'approved' && o.sign) key = await loadSigningKey(o.sign, await signingPassword(o.sign, env));
  const records: ApprovalRecord[] = [];
  let manifest = folder.manifest;
  for (const r of chosen) {
    const signPdf = key && r.audience === 'client' && r.files.includes(`${r.stem}.pdf`);
    if (key && signPdf) {
      const pdf = path.join(dir, `${r.stem}.pdf`);
      if (findSignatures(await readFile(pdf)).length > 0) log(`${r.stem}.pdf is signed already (approved before): its signature is kept.`);
      else {
        await signPdfFile(pdf, key, { name: by, reason: `Approved for the client by ${by}`, location: o.location ?? 'Not stated', at }, o.tsa ? { timestamp: timestampFrom(o.tsa) } : {}).catch((e: unknown) => {
          throw e instanceof PdfStructureError ? new UsageError(`${r.stem}.pdf cannot be signed: ${e.message}`) : e;
        });
        // At once, so a failure on a later report leaves the manifest true to the files.
        manifest = await withFileHashes(dir, manifest, [`${r.stem}.pdf`]);
        await saveManifest(dir, manifest, manifestKey);
        log(`Signed ${r.stem}.pdf (${key.subject}${o.tsa ? ', timestamped' : ''}).`);
      }
    }
    const files = [];
    for (const name of r.files) files.push({ name, sha256: (await sha256File(path.join(dir, name))).sha256 });
    records.push({
      report: r.stem,
      portfolio: r.portfolio,
      decision,
      by,
      at: at.toISOString(),
      reason: decision === 'rejected' ? o.reason!.trim() : (o.reason?.trim() ?? null),
      files,
      signature: key && signPdf ? { certificate_subject: key.subject, certificate_sha256: key.certificateSha256, timestamp_authority: o.tsa ? publicBaseUrl(o.tsa) : null } : null,
    });
  }
  await saveManifest(dir, { ...manifest, approvals: [...(manifest.approvals ?? []), ...records] }, manifestKey);
  let database: string | undefined;
  if (db) {
    const opened = await openDatabase(db.target, { mustExist: true, waitMs: db.waitMs, onWait: log, command: `svc-report ${decision === 'approved' ? 'approve' : 'reject'}` }).catch((e: unknown) => {
      throw e instanceof DatabaseError ? new UsageError(`${e.message}; the decision is recorded in ${path.join(dir, MANIFEST_FILE)} but not in the history database`) : e;
    });
    try {
      await recordApprovals(opened, records.map((rec) => dbRow(rec, chosen)));
      database = opened.where;
    } finally {
      await opened.close();
    }
  }
  const delivered = o.deliver && decision === 'approved' ? await deliver(await readRunFolder(dir), path.resolve(o.deliver)) : undefined;
  return { records, delivered, database };
}

/** Refuses reports whose files no longer hash as the run wrote them: nobody approves a file edited since. */
async function refuseChanged(dir: string, manifest: RunManifest, reports: readonly FolderReport[]): Promise<void> {
  const listed = new Map(manifest.files.map((f) => [f.name, f.sha256]));
  for (const r of reports)
    for (const name of r.files) {
      const actual = await sha256File(path.join(dir, name)).catch(() => undefined);
      if (actual?.sha256 !== listed.get(name)) throw new UsageError(`${name}: ${actual ? 'changed' : 'missing'} since the run wrote it (its SHA-256 differs from the manifest); run the month-end again before approving`);
    }
}

/** The manifest with these files' entries following their bytes now (signed PDFs). */
async function withFileHashes(dir: string, manifest: RunManifest, names: readonly string[]): Promise<RunManifest> {
  const files = [];
  for (const f of manifest.files) files.push(names.includes(f.name) ? { ...f, ...(await sha256File(path.join(dir, f.name))) } : f);
  return { ...manifest, files };
}

function dbRow(rec: ApprovalRecord, reports: readonly FolderReport[]): ApprovalInput {
  const asOf = reports.find((r) => r.stem === rec.report)!.report.as_of;
  return { portfolio: rec.portfolio, report: rec.report, asOf, decision: rec.decision, by: rec.by, at: rec.at, reason: rec.reason, files: rec.files, certificateSha256: rec.signature?.certificate_sha256 ?? null };
}
