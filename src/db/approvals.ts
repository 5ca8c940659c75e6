import type { Database } from './open';

/** A reviewer's decision on one report, as the run's manifest records it (issue 25). */
export interface ApprovalInput {
  portfolio: string;
  /** The report's file stem. */
  report: string;
  asOf: string;
  decision: 'approved' | 'rejected';
  by: string;
  at: string;
  reason: string | null;
  files: { name: string; sha256: string }[];
  certificateSha256: string | null;
}

export interface RecordedApproval extends ApprovalInput {
  id: number;
}

/** Records decisions, one row each, in one transaction (a decision is never half recorded). */
export async function recordApprovals(db: Database, decisions: readonly ApprovalInput[]): Promise<void> {
  if (decisions.length === 0) return;
  await db.kysely.transaction().execute((tx) =>
    tx
      .insertInto('approvals')
      .values(
        decisions.map((d) => ({
          portfolio: d.portfolio,
          report: d.report,
          as_of: d.asOf,
          decision: d.decision,
          decided_by: d.by,
          decided_at: d.at,
          reason: d.reason,
          files: JSON.stringify(d.files),
          certificate_sha256: d.certificateSha256,
        })),
      )
      .execute(),
  );
}

/** The decisions recorded, oldest first (a portfolio's alone when named). */
export async function approvals(db: Database, portfolio?: string): Promise<RecordedApproval[]> {
  let q = db.kysely.selectFrom('approvals').select(['id', 'portfolio', 'report', 'decision', 'decided_by', 'reason', 'files', 'certificate_sha256']).select((eb) => [eb.cast<string>('as_of', 'text').as('as_of'), eb.cast<string>('decided_at', 'text').as('decided_at')]);
  if (portfolio !== undefined) q = q.where('portfolio', '=', portfolio);
  const rows = await q.orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    portfolio: r.portfolio,
    report: r.report,
    asOf: r.as_of,
    decision: r.decision,
    by: r.decided_by,
    at: r.decided_at,
    reason: r.reason,
    files: (typeof r.files === 'string' ? JSON.parse(r.files) : r.files) as ApprovalInput['files'],
    certificateSha256: r.certificate_sha256,
  }));
}
