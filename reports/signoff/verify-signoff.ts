/**
 * What `svc-report verify` adds for review and signing (issue 25): each report's approval still
 * holds (its files hash as approved; one changed since is named), and every signed PDF's
 * signature holds (sign/check-signature.ts), its certificate checked against --ca when given.
 */
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { readRegularFile, UnreadableFile } from '../../src/regular-file';
import { UsageError } from '../run/exit-codes';
import type { RunManifest } from '../run-manifest';
import { latestDecisions } from './approval-record';
import { changedSinceApproval } from './approval-state';
import { checkPdfSignatures, findSignatures } from './sign/check-signature';

export interface SignoffVerification {
  lines: string[];
  /** Files that fail (approval broken or signature invalid). */
  failed: string[];
}

export interface SignoffOptions {
  /** PEM file of the CA certificates the signers' certificates must chain to. */
  ca?: string;
}

/** A PEM bundle of CA certificates is a few hundred KB at most. */
const CA_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** Signed PDFs are read with verify's reader, within verify's own bounds for them. */
const SIGNED_PDF_MAX_BYTES = 2 ** 31;
const SIGNED_PDF_READ_MS = 600_000;

/** The CA certificates in a PEM file (one or more). */
export async function readCaFile(file: string): Promise<X509Certificate[]> {
  let text: string;
  try {
    text = (await readRegularFile(file, { maxBytes: CA_FILE_MAX_BYTES, deadline: Date.now() + 30_000 })).toString('utf8');
  } catch (e) {
    throw new UsageError(`--ca ${file}: cannot be read (${e instanceof UnreadableFile ? e.message : ((e as NodeJS.ErrnoException).code ?? 'error')})`);
  }
  const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (pems.length === 0) throw new UsageError(`--ca ${file}: holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pems.map((p) => new X509Certificate(p));
}

export async function verifySignoff(dir: string, manifest: RunManifest, options: SignoffOptions = {}): Promise<SignoffVerification> {
  const out: SignoffVerification = { lines: [], failed: [] };
  const mustBeSigned = new Set<string>();
  const fail = (file: string, why: string) => {
    out.failed.push(file);
    out.lines.push(`FAILED   ${file}: ${why}`);
  };
  for (const record of latestDecisions(manifest.approvals ?? []).values()) {
    if (record.decision === 'rejected') {
      out.lines.push(`REJECTED ${record.report}: by ${record.by} at ${record.at}: ${record.reason ?? ''}`);
      continue;
    }
    const changed = await changedSinceApproval(dir, record);
    for (const f of changed) fail(f, `changed after ${record.by} approved it at ${record.at}: no longer approved`);
    if (record.signature) for (const f of record.files.filter((x) => x.name.endsWith('.pdf'))) mustBeSigned.add(f.name);
    if (changed.length === 0) out.lines.push(`APPROVED ${record.report}: by ${record.by} at ${record.at}${record.signature ? `, signed by ${record.signature.certificate_subject}` : ''}`);
  }
  const cas = options.ca ? await readCaFile(options.ca) : undefined;
  let signed = 0;
  for (const f of manifest.files.filter((x) => x.name.endsWith('.pdf') && x.name === path.basename(x.name))) {
    // A FIFO, link or device in a PDF's place is not read here (the file check names it).
    const bytes = await readRegularFile(path.join(dir, f.name), { maxBytes: SIGNED_PDF_MAX_BYTES, deadline: Date.now() + SIGNED_PDF_READ_MS }).catch(() => undefined);
    if (!bytes || findSignatures(bytes).length === 0) {
      if (bytes && mustBeSigned.has(f.name)) fail(f.name, 'signature: it was approved signed and carries no signature now');
      continue;
    }
    signed++;
    for (const check of checkPdfSignatures(bytes, cas)) for (const p of check.problems) fail(f.name, `signature: ${p}`);
  }
  if (signed > 0) out.lines.push(cas ? `Signatures: ${signed} signed PDF${signed === 1 ? '' : 's'} checked against the CA in ${options.ca}.` : `Signatures: ${signed} signed PDF${signed === 1 ? '' : 's'} checked for integrity; certificates not checked (give --ca FILE).`);
  return out;
}
