/**
 * `svc-report verify FILE.pdf [--ca FILE]`: one signed PDF as a client or an auditor receives it,
 * without the run's folder or manifest. The same checks as the folder's signed PDFs get
 * (signoff/sign/check-signature.ts): the signature covers the whole file but its own bytes (one
 * byte changed, or an incremental update appended after it, fails), its digest and signature
 * verify, the signer's certificate is named and chains to --ca, and an RFC 3161 timestamp, when
 * there is one, is over this signature and signed by its authority. The file is read with
 * verify's reader: a regular file only, no link, no FIFO, bounded in size and time.
 */
import type { X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { readRegularFile, UnreadableFile } from '../src/regular-file';
import { UsageError } from './run/exit-codes';
import { checkPdfSignatures } from './signoff/sign/check-signature';
import { readCaFile } from './signoff/verify-signoff';

/** A client's PDF is a few MB; this bounds what a hostile file costs to read. */
const PDF_MAX_BYTES = 1024 ** 3;

export interface PdfVerification {
  passed: boolean;
  lines: string[];
}

/** What verify was given: a report folder, or one file (a PDF); not there at all is said so (exit 2). */
export async function verifyTargetKind(target: string): Promise<'folder' | 'file'> {
  const st = await fs.stat(target).catch((e: NodeJS.ErrnoException) => e);
  if (st instanceof Error) throw new UsageError(st.code === 'ENOENT' ? `${target}: no such file or folder (give a report folder, or one signed PDF)` : `${target}: cannot be read (${st.code ?? 'error'})`);
  return st.isDirectory() ? 'folder' : 'file';
}

export async function verifyPdf(file: string, opts: { ca?: string; timeLimitMs: number }): Promise<PdfVerification> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, { maxBytes: PDF_MAX_BYTES, deadline: Date.now() + opts.timeLimitMs });
  } catch (e) {
    if (e instanceof UnreadableFile) throw new UsageError(`${file}: ${e.kind === 'missing' ? 'no such file' : e.message}`);
    throw e;
  }
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new UsageError(`${file} is not a PDF (it does not start with %PDF-): give a signed report PDF, or a report folder`);
  const cas: X509Certificate[] | undefined = opts.ca ? await readCaFile(opts.ca) : undefined;
  const checks = checkPdfSignatures(bytes, cas);
  const lines: string[] = [];
  const failures: string[] = [];
  checks.forEach((c, i) => {
    const label = checks.length === 1 ? 'Signature' : `Signature ${i + 1} of ${checks.length}`;
    lines.push(`${label}: ${c.problems.length === 0 ? 'VALID' : 'FAILED'}`);
    if (c.signer) lines.push(`  Signer: ${c.signer}`);
    if (c.claimedAt) lines.push(`  Signing time claimed by the signer: ${c.claimedAt}`);
    if (c.problems.length === 0) {
      lines.push('  Covers the whole file but the signature itself: nothing changed or added since it was signed');
      lines.push(cas ? `  Certificate: chains to a CA in ${opts.ca}` : '  Certificate: not checked against a CA (give --ca FILE with the firm\'s CA certificate)');
    }
    lines.push(c.timestamp ? `  Timestamp: ${c.timestamp.at} by ${c.timestamp.authority}${c.problems.length === 0 ? ', over this signature' : ''}` : c.timestamped ? '  Timestamp: present, unreadable' : '  Timestamp: none (the signing time is only the signer\'s claim)');
    for (const p of c.problems) {
      lines.push(`FAILED   ${file}: ${p}`);
      failures.push(p);
    }
  });
  const passed = failures.length === 0;
  lines.push(passed ? `Verified: ${file} is signed and unchanged since it was signed${cas ? `; its signer chains to ${opts.ca}` : ''}.` : `Verification FAILED for ${file}: ${failures.join('; ')}.`);
  return { passed, lines };
}
