/**
 * `svc-report verify <dir>`: checks a report folder against its manifest.json. Every file the
 * manifest lists must be there with the same size and SHA-256; a file changed by one byte or
 * missing is named. Files the manifest does not list are named too, but do not fail the check
 * (a folder may gain unrelated files; what was produced is what is vouched for).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, readManifest, runsOf, sha256File, type RunManifest } from './run-manifest';
import { verifySignoff, type SignoffOptions, type SignoffVerification } from './signoff/verify-signoff';

export interface VerifyResult {
  manifest: RunManifest;
  ok: string[];
  changed: string[];
  missing: string[];
  /** In the folder but not in the manifest (hidden files and the manifest itself aside). */
  unlisted: string[];
  /** Reports written by an earlier month-end run than the folder's record, with that run's time and as-of day. */
  earlier: { name: string; generatedAt: string; asOf: string }[];
  /** Approvals and signatures (issue 25). */
  signoff: SignoffVerification;
}

export async function verifyDirectory(dir: string, signoff: SignoffOptions = {}): Promise<VerifyResult> {
  const manifest = await readManifest(dir);
  const result: VerifyResult = { manifest, ok: [], changed: [], missing: [], unlisted: [], earlier: [], signoff: await verifySignoff(dir, manifest, signoff) };
  for (const f of manifest.files) {
    // A name with a separator cannot have been written by the job: treat it as missing rather than read outside the folder.
    const file = path.join(dir, f.name);
    if (f.name !== path.basename(f.name) || f.name.startsWith('.')) {
      result.missing.push(f.name);
      continue;
    }
    let actual: { sha256: string; bytes: number };
    try {
      actual = await sha256File(file);
    } catch {
      result.missing.push(f.name);
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
export function describeVerification(dir: string, r: VerifyResult): { passed: boolean; lines: string[] } {
  const lines = [
    ...r.changed.map((n) => `CHANGED  ${n}: its SHA-256 or size differs from the manifest`),
    ...r.missing.map((n) => `MISSING  ${n}`),
    ...r.unlisted.map((n) => `UNLISTED ${n}: not in the manifest (not checked)`),
    ...r.earlier.map((e) => `EARLIER  ${e.name}: written by an earlier run (${e.generatedAt}, valuations as of ${e.asOf}), not by the run this folder's record describes`),
    ...r.signoff.lines,
  ];
  const passed = r.changed.length === 0 && r.missing.length === 0 && r.signoff.failed.length === 0;
  lines.push(
    passed
      ? `Verified: all ${r.ok.length} files in ${dir} match its manifest (svc-report ${r.manifest.tool.version}, valuations as of ${r.manifest.valuations_as_of}).`
      : `Verification FAILED for ${dir}: ${r.changed.length} changed, ${r.missing.length} missing, ${r.signoff.failed.length} failing approval or signature, ${r.ok.length} match.`,
  );
  return { passed, lines };
}
