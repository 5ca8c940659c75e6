/**
 * `svc-report approve` and `reject`: a reviewer's decision on a run's reports, recorded in the
 * run's manifest (`approvals`) and, where a history database is configured, in its `approvals`
 * table. Approving with --sign first signs each client PDF (PAdES; the manifest's entry for the
 * file follows the signed bytes), so the approval covers the file the client receives. A report
 * whose files no longer match the manifest (edited since the run) is refused, not approved.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DatabaseError, openDatabase, recordApprovals, type ApprovalInput } from '../../src/db';
import { refuseEmptyFolder } from '../history/database-target';
import { historyDatabase, readConfigFile } from '../config';
import { UsageError } from '../run/exit-codes';
import { writeAtomically } from '../writers/atomic-write';
import { MANIFEST_FILE, readManifestDocument, saveManifest, publicBaseUrl, type RunManifest } from '../run-manifest';
import { hashRegularFile, readRegularFile, UnreadableFile } from '../../src/regular-file';
import { resolveManifestKey } from '../manifest-key';
import { checkManifestSignature } from '../manifest-signature';
import { latestDecisions, type ApprovalRecord } from './approval-record';
import { checkDeliveryPaths, deliver, takeBackFiles, type Delivered } from './deliver';
import { readDeliveryRecord, saveDeliveryRecord } from './delivery-record';
import { readRunFolder, selectReports, type FolderReport, type RunFolder } from './folder-reports';
import { signingPassword } from './sign-password';
import { findSignatures } from './sign/check-signature';
import { PdfStructureError } from './sign/pdf-objects';
import { signPdfBytes } from './sign/sign-pdf';
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
  /** A rehearsal: approve, sign and deliver sandbox data (its SANDBOX DATA marks stay). */
  allowSandbox?: boolean;
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
  /** A rejection: the copies earlier deliveries had made of the rejected reports, taken back at once (paths). */
  takenBack?: string[];
  /** Where the decisions were recorded besides the manifest. */
  database?: string;
}

/** "Name <email>": a name and an address a colleague can reach. */
const BY = /^[^<>]*\S[^<>]*<[^<>@\s]+@[^<>@\s]+>$/;

export async function decide(dir: string, decision: 'approved' | 'rejected', o: DecisionOptions, log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<DecisionOutcome> {
  const by = o.by.trim();
  if (!BY.test(by)) throw new UsageError(`--by ${JSON.stringify(o.by)}: give the reviewer as "Name <email>"`);
  if (decision === 'rejected' && !o.reason?.trim()) throw new UsageError('reject needs --reason: say what is wrong, for whoever runs the month-end again');
  // First the folder as review sees it: a missing folder or manifest, or an entry that is not a plain regular file, is refused here (exit 2).
  const folder = await readRunFolder(dir);
  // A signed folder stays signed: the decision is built only on a manifest that verifies, and re-signed.
  const manifestKey = resolveManifestKey({ manifestKey: o.manifestKey, config: o.config }, env);
  const { doc } = await readManifestDocument(dir);
  // Written without the key, a signed manifest would lose its signature: refused, not downgraded.
  if (!manifestKey && doc.signature !== undefined) throw new UsageError(`${path.join(dir, MANIFEST_FILE)} is signed with the firm's manifest key: give it (--manifest-key FILE, SVC_MANIFEST_KEY or manifest_key_file in the config) so the decision keeps it signed; nothing was decided`);
  if (manifestKey) {
    const check = checkManifestSignature(doc, manifestKey);
    if (check.state !== 'valid') throw new UsageError(`${path.join(dir, MANIFEST_FILE)} does not verify under the manifest key (${check.state === 'invalid' ? check.why : check.state}): run svc-report verify; nothing was decided`);
  }
  if (doc.signature === undefined && !manifestKey) log(`Note: ${path.join(dir, MANIFEST_FILE)} is unsigned: it proves the files match it, not who wrote it; set SVC_MANIFEST_KEY in production (docs/security.md).`);
  const chosen = selectReports(folder, o.portfolio);
  if (decision === 'approved') refuseSandbox(folder, chosen, o);
  await refuseChanged(dir, folder.manifest, chosen);
  // Links in the delivery folder are refused before anything is decided (and again as each file is written).
  const deliverTo = o.deliver && decision === 'approved' ? path.resolve(o.deliver) : undefined;
  if (deliverTo) {
    await checkDeliveryPaths(deliverTo, folder.reports.map((r) => r.stem));
    if (await fs.lstat(deliverTo).catch(() => undefined)) await readDeliveryRecord(deliverTo);
  }
  const deliveredTo = decision === 'rejected' ? await deliveryFoldersToTakeBackFrom(folder.manifest, chosen) : [];
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
      const bytes = await readRunFile(pdf);
      if (findSignatures(bytes).length > 0) log(`${r.stem}.pdf is signed already (approved before): its signature is kept.`);
      else {
        const signed = await signPdfBytes(bytes, key, { name: by, signer: key.subject, reason: `Approved for the client by ${by}`, location: o.location ?? 'Not stated', at }, o.tsa ? { timestamp: timestampFrom(o.tsa) } : {}).catch((e: unknown) => {
          throw e instanceof PdfStructureError ? new UsageError(`${r.stem}.pdf cannot be signed: ${e.message}`) : e;
        });
        // A new file renamed over the report: never written through whatever is at its name.
        await writeAtomically(pdf, (temp) => fs.writeFile(temp, signed, { flag: 'wx' }));
        // At once, so a failure on a later report leaves the manifest true to the files.
        manifest = await withFileHashes(dir, manifest, [`${r.stem}.pdf`]);
        await saveManifest(dir, manifest, manifestKey);
        log(`Signed ${r.stem}.pdf (${key.subject}${o.tsa ? ', timestamped' : ''}).`);
      }
    }
    const files = [];
    for (const name of r.files) files.push({ name, sha256: (await hashRunFile(path.join(dir, name))).sha256 });
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
  const deliveries = deliverTo && !(manifest.deliveries ?? []).includes(deliverTo) ? [...(manifest.deliveries ?? []), deliverTo] : manifest.deliveries;
  await saveManifest(dir, { ...manifest, approvals: [...(manifest.approvals ?? []), ...records], ...(deliveries ? { deliveries } : {}) }, manifestKey);
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
  const delivered = deliverTo ? await deliver(await readRunFolder(dir), deliverTo) : undefined;
  const takenBack: string[] = [];
  for (const to of deliveredTo) {
    const record = await readDeliveryRecord(to);
    takenBack.push(...(await takeBackFiles(to, record, chosen.map((r) => r.stem))));
    await saveDeliveryRecord(to, record);
  }
  return { records, delivered, database, ...(decision === 'rejected' ? { takenBack } : {}) };
}

/** Bounds for reading a run's files here: verify's reader (regular files only, no link, no FIFO). */
const RUN_FILE_LIMITS = () => ({ maxBytes: 2 ** 31, deadline: Date.now() + 600_000 });
const hashRunFile = (file: string) => hashRegularFile(file, RUN_FILE_LIMITS());
const readRunFile = (file: string) => readRegularFile(file, RUN_FILE_LIMITS());

/**
 * Sandbox figures are never approved for a client, signed or delivered, unless the reviewer says
 * it is a rehearsal (--allow-sandbox): the reports chosen, and with --deliver every approved report
 * a delivery would copy, are named.
 */
function refuseSandbox(folder: RunFolder, chosen: readonly FolderReport[], o: DecisionOptions): void {
  if (o.allowSandbox) return;
  const delivered = o.deliver ? folder.reports.filter((r) => r.audience === 'client' && latestDecisions(folder.manifest.approvals ?? []).get(r.stem)?.decision === 'approved') : [];
  const sandbox = [...new Set([...chosen, ...delivered])].filter((r) => r.sandbox && r.audience === 'client');
  if (sandbox.length === 0) return;
  const what = [o.sign ? 'signed' : '', o.deliver ? 'delivered' : ''].filter(Boolean).join(' or ');
  throw new UsageError(
    `${sandbox.map((r) => r.stem).join(', ')}: sandbox data (figures from the test sandbox, not the live service), never approved${what ? `, ${what}` : ''} for a client; give --allow-sandbox for a rehearsal (the reports keep their SANDBOX DATA marks); nothing was decided`,
  );
}

/** The delivery folders the manifest records, checked for links, that hold a copy of a report being rejected. */
async function deliveryFoldersToTakeBackFrom(manifest: RunManifest, chosen: readonly FolderReport[]): Promise<string[]> {
  const folders: string[] = [];
  for (const to of manifest.deliveries ?? []) {
    if (!path.isAbsolute(to)) continue;
    const st = await fs.lstat(to).catch(() => undefined);
    if (!st?.isDirectory()) continue; // gone (or never made): nothing to take back there
    await checkDeliveryPaths(to, chosen.map((r) => r.stem));
    // An edited record is refused here, before anything is decided.
    await readDeliveryRecord(to);
    folders.push(to);
  }
  return folders;
}

/** Refuses reports whose files no longer hash as the run wrote them: nobody approves a file edited since. */
async function refuseChanged(dir: string, manifest: RunManifest, reports: readonly FolderReport[]): Promise<void> {
  const listed = new Map(manifest.files.map((f) => [f.name, f.sha256]));
  for (const r of reports)
    for (const name of r.files) {
      const actual = await hashRunFile(path.join(dir, name)).catch((e: unknown) => {
        if (e instanceof UnreadableFile && e.kind === 'refused') throw new UsageError(`${name}: ${e.message}; nothing was decided`);
        return undefined;
      });
      if (actual?.sha256 !== listed.get(name)) throw new UsageError(`${name}: ${actual ? 'changed' : 'missing'} since the run wrote it (its SHA-256 differs from the manifest); run the month-end again before approving`);
    }
}

/** The manifest with these files' entries following their bytes now (signed PDFs). */
async function withFileHashes(dir: string, manifest: RunManifest, names: readonly string[]): Promise<RunManifest> {
  const files = [];
  for (const f of manifest.files) files.push(names.includes(f.name) ? { ...f, ...(await hashRunFile(path.join(dir, f.name))) } : f);
  return { ...manifest, files };
}

function dbRow(rec: ApprovalRecord, reports: readonly FolderReport[]): ApprovalInput {
  const asOf = reports.find((r) => r.stem === rec.report)!.report.as_of;
  return { portfolio: rec.portfolio, report: rec.report, asOf, decision: rec.decision, by: rec.by, at: rec.at, reason: rec.reason, files: rec.files, certificateSha256: rec.signature?.certificate_sha256 ?? null };
}
