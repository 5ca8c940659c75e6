/**
 * An approval or rejection as the run's manifest keeps it (manifest.json, key `approvals`, oldest
 * first; the latest record for a report decides its state) and the history database mirrors it.
 * Who, when, and the SHA-256 of each of the report's files at that moment: a file that no longer
 * hashes the same is no longer approved.
 */
import { z } from 'zod';

export const SignatureNote = z.object({
  /** The signing certificate's subject, as the PDF's signature shows it. */
  certificate_subject: z.string(),
  /** SHA-256 of the signing certificate (DER), hex. */
  certificate_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The timestamp authority's URL (without credentials) when the signature carries an RFC 3161 timestamp. */
  timestamp_authority: z.string().nullable(),
});

export const ApprovalRecord = z.object({
  /** The report's stem: its files' shared name without extension. */
  report: z.string().min(1),
  portfolio: z.string(),
  decision: z.enum(['approved', 'rejected']),
  /** "Name <email>" as given with --by. */
  by: z.string().min(1),
  at: z.string(),
  /** Why it was rejected (required for a rejection), or null. */
  reason: z.string().nullable(),
  /** Each of the report's files as approved (signed PDFs: after signing). */
  files: z.array(z.object({ name: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  /** Set when the client PDF was signed on approval. */
  signature: SignatureNote.nullable(),
});
export type ApprovalRecord = z.infer<typeof ApprovalRecord>;

/** Each report's latest record, by report stem. */
export function latestDecisions(records: readonly ApprovalRecord[]): Map<string, ApprovalRecord> {
  const latest = new Map<string, ApprovalRecord>();
  for (const r of records) latest.set(r.report, r);
  return latest;
}
