import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';

/** One line of the audit log (docs/security.md, "Audit log"). Only these fields: no tokens, secrets, bodies or prices. */
export interface AuditLine {
  time: string;
  /**
   * The Entra object id (`oid`) of a token whose signature verified (refusals for a missing role or
   * an expired sign-in included), or `address:<ip>` when the host runs without sign-in; null only
   * when no token verified.
   */
  user_id: string | null;
  user_name: string | null;
  /** The API operation (batchValuations, createValuation, …), or status, refresh, report. */
  operation: string;
  assets: number | null;
  /** A history or performance read (SVC.HISTORY, SVC.PERFORMANCE): the portfolio asked for, allowed or refused. */
  portfolio?: string;
  /** An asset's history read: the asset id asked for. */
  asset_id?: string;
  /** hit: answered from the host's cache; upstream: the service was called; none: refused before either. */
  source: 'hit' | 'upstream' | 'none';
  status: number;
  duration_ms: number;
  /** On a refusal or failure only: its error type (cross_site_refused, sign_in_required, role_required, user_daily_share_used, …). */
  error?: string;
}

export const DEFAULT_AUDIT_FILE = 'addin-audit.jsonl';
/** Rotated when the file would pass this size; `.1` … `.5` are kept. */
export const DEFAULT_AUDIT_MAX_BYTES = 20 * 1024 * 1024;
const KEPT_FILES = 5;

/**
 * Appends one JSON line per user request, in order, rotating by size: the file is renamed to
 * `.1` (older ones shifted up to `.5`, the oldest dropped) before a line would make it larger
 * than maxBytes. Writes are queued so lines never interleave; a failing disk is reported on
 * stderr once per failure and never fails the user's request.
 */
export class AuditLog {
  private queue: Promise<void> = Promise.resolve();
  private size: number | undefined;

  constructor(
    readonly file: string,
    private readonly maxBytes = DEFAULT_AUDIT_MAX_BYTES,
    /** Where a failing disk is reported (the host's log; default stderr). */
    private readonly report: (message: string) => void = (m) => console.error(m),
  ) {}

  write(line: AuditLine): void {
    const text = JSON.stringify(line) + '\n';
    this.queue = this.queue.then(() => this.append(text)).catch((err: unknown) => {
      this.size = undefined;
      this.report(`[addin-host] the audit log ${this.file} could not be written: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  /** Resolves once every line written so far is on disk. */
  flush(): Promise<void> {
    return this.queue;
  }

  private async append(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text);
    if (this.size === undefined) {
      await mkdir(path.dirname(this.file), { recursive: true });
      this.size = await stat(this.file).then((s) => s.size, () => 0);
    }
    if (this.size > 0 && this.size + bytes > this.maxBytes) {
      for (let i = KEPT_FILES - 1; i >= 1; i--) await rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch(() => undefined);
      await rename(this.file, `${this.file}.1`);
      this.size = 0;
    }
    await appendFile(this.file, text, { mode: 0o600 });
    this.size += bytes;
  }
}
