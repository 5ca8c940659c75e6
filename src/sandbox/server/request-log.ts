import { closeSync, openSync, writeSync } from 'node:fs';

export interface LogLine {
  t: string;
  client_id: string | null;
  method: string;
  path: string;
  /** 0 when the connection was dropped by an injected fault. */
  status: number;
  /** Number of assets the request body carried (0 when none). */
  items: number;
  /** The x-request-id the answer carried (absent from logs written before it existed). */
  request_id?: string;
}

/**
 * Appends one JSON line per request, written before the response goes out, so a reader that
 * has its answer finds the line. Only these fields: never tokens, secrets or headers.
 */
export class RequestLog {
  private fd: number | undefined;

  constructor(path: string) {
    this.fd = openSync(path, 'a');
  }

  write(line: LogLine): void {
    if (this.fd !== undefined) writeSync(this.fd, JSON.stringify(line) + '\n');
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** How many assets a request body describes: the batch length, 1 for a single asset, else 0. */
export function countItems(body: unknown): number {
  if (typeof body !== 'object' || body === null) return 0;
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.assets)) return b.assets.length;
  if (typeof b.asset_id === 'string' || typeof b.segment === 'string') return 1;
  return 0;
}
