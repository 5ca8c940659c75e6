import { createWriteStream, type WriteStream } from 'node:fs';

export interface LogLine {
  t: string;
  client_id: string | null;
  method: string;
  path: string;
  status: number;
  /** Number of assets the request body carried (0 when none). */
  items: number;
}

/** Appends one JSON line per request. Only these fields: never tokens, secrets or headers. */
export class RequestLog {
  private readonly stream: WriteStream;

  constructor(path: string) {
    this.stream = createWriteStream(path, { flags: 'a' });
  }

  write(line: LogLine): void {
    this.stream.write(JSON.stringify(line) + '\n');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
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
