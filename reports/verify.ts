/**
 * `svc-report verify <dir>`: checks a report folder against its manifest.json. Every file the
 * manifest lists must be there with the same size and SHA-256; a file changed by one byte or
 * missing is named. Files the manifest does not list are named too, but do not fail the check
 * (a folder may gain unrelated files; what was produced is what is vouched for).
 * The folder is not trusted: only regular files are read, none through a link, none past the
 * size the manifest records, all within a time limit (regular-file.ts); the manifest must list
 * something and, with a manifest key configured, carry its signature (verify-signature.ts).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, ManifestError, readManifestDocument, runsOf, type RunManifest } from './run-manifest';
import { checkManifestSignature, type SignatureCheck } from './manifest-signature';
import type { ManifestKey } from './manifest-key';
import { hashRegularFile, UnreadableFile } from '../src/regular-file';
import { describeSignature } from './verify-signature';
import { verifySignoff, type SignoffOptions, type SignoffVerification } from './signoff/verify-signoff';

/** How long verify reads files for at most, unless told otherwise (--time-limit). */
export const DEFAULT_VERIFY_TIME_LIMIT_S = 600;

export interface VerifyOptions {
  /** Approvals and signatures (issue 25): the CA the signers' certificates must chain to. */
  signoff?: SignoffOptions;
  /** The firm's manifest key, when configured: the signature must verify under it. */
  key?: ManifestKey;
  /** Every file read within this many ms in all. */
  timeLimitMs?: number;
}

export interface VerifyResult {
  manifest: RunManifest;
  signature: SignatureCheck;
  ok: string[];
  changed: string[];
  missing: string[];
  /** Listed files that are there but were not read: not a regular file, larger than recorded, or out of time. */
  refused: { name: string; why: string }[];
  /** In the folder but not in the manifest (hidden files and the manifest itself aside). */
  unlisted: string[];
  /** Reports written by an earlier month-end run than the folder's record, with that run's time and as-of day. */
  earlier: { name: string; generatedAt: string; asOf: string }[];
  /** Approvals and signatures (issue 25). */
  signoff: SignoffVerification;
}

export async function verifyDirectory(dir: string, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const { manifest, doc } = await readManifestDocument(dir);
  if (manifest.files.length === 0) throw new ManifestError(`${path.join(dir, MANIFEST_FILE)} lists no files: it vouches for nothing`);
  const deadline = Date.now() + (opts.timeLimitMs ?? DEFAULT_VERIFY_TIME_LIMIT_S * 1000);
  const result: VerifyResult = { manifest, signature: checkManifestSignature(doc, opts.key), ok: [], changed: [], missing: [], refused: [], unlisted: [], earlier: [], signoff: await verifySignoff(dir, manifest, opts.signoff) };
  for (const f of manifest.files) {
    // A name with a separator cannot have been written by the job: treat it as missing rather than read outside the folder.
    if (f.name !== path.basename(f.name) || f.name.startsWith('.')) {
      result.missing.push(f.name);
      continue;
    }
    let actual: { sha256: string; bytes: number };
    try {
      actual = await hashRegularFile(path.join(dir, f.name), { maxBytes: f.bytes, deadline });
    } catch (e) {
      if (!(e instanceof UnreadableFile)) throw e;
      if (e.kind === 'missing') result.missing.push(f.name);
      else result.refused.push({ name: f.name, why: e.message });
      continue;
    }
    (actual.sha256 === f.sha256 && actual.bytes === f.bytes ? result.ok : result.changed).push(f.name);
  }
  // Reports of two month-end runs side by side (other portfolios' left from before): named, so nobody takes them for one run.
  const runs = new Map(runsOf(manifest).map((r) => [r.run_id, r]));
  const latest = [...runs.values()].reverse().find((r) => r.command === 'run');
  for (const f of manifest.files) {
    const run = f.run_id === undefined ? undefined : runs.get(f.run_id);
    if (latest && run && run.command === 'run' && run.run_id !== latest.run_id) result.earlier.push({ name: f.name, generatedAt: run.generated_at, asOf: run.valuations_as_of });
  }
  const listed = new Set(manifest.files.map((f) => f.name));
  for (const name of (await fs.readdir(dir)).sort()) {
    if (!listed.has(name) && name !== MANIFEST_FILE && !name.startsWith('.')) result.unlisted.push(name);
  }
  return result;
}

/** The lines `verify` prints, and whether the folder passed. */
export function describeVerification(dir: string, r: VerifyResult, opts: { requireSignature?: boolean } = {}): { passed: boolean; lines: string[] } {
  const signature = describeSignature(r.signature, opts.requireSignature ?? false);
  const lines = [
    signature.line,
    ...r.changed.map((n) => `CHANGED  ${n}: its SHA-256 or size differs from the manifest`),
    ...r.missing.map((n) => `MISSING  ${n}`),
    ...r.refused.map((f) => `NOT READ ${f.name}: ${f.why}`),
    ...r.unlisted.map((n) => `UNLISTED ${n}: not in the manifest (not checked)`),
    ...r.earlier.map((e) => `EARLIER  ${e.name}: written by an earlier run (${e.generatedAt}, valuations as of ${e.asOf}), not by the run this folder's record describes`),
    ...r.signoff.lines,
  ];
  const filesPass = r.changed.length === 0 && r.missing.length === 0 && r.refused.length === 0;
  const passed = filesPass && signature.passed && r.signoff.failed.length === 0;
  lines.push(
    passed
      ? `Verified: all ${r.ok.length} files in ${dir} match its manifest (svc-report ${r.manifest.tool.version}, valuations as of ${r.manifest.valuations_as_of}).`
      : `Verification FAILED for ${dir}: ${r.changed.length} changed, ${r.missing.length} missing, ${r.refused.length} not read, ${r.signoff.failed.length} failing approval or signature, ${r.ok.length} match${signature.passed ? '' : `; ${MANIFEST_FILE}'s signature fails`}.`,
  );
  return { passed, lines };
}
