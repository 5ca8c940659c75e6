import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The body as text, refused beyond the service's own 1 MiB limit. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new HttpProblem(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpProblem(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Deeper than any request of the contract (a batch item's fields are at depth 3; a report grid's cells at 3). */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest nesting of arrays and objects in JSON text, counted without parsing, so a body
 * nested 10,000 deep is refused before anything recursive (parsing, validation, cache keys)
 * walks it. Brackets inside strings do not count.
 */
export function jsonDepth(text: string, stopAt = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) max = depth;
      if (max > stopAt) return max;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

export async function readJson(req: IncomingMessage, limit?: number, maxDepth = MAX_JSON_DEPTH): Promise<unknown> {
  const text = await readBody(req, limit);
  if (text.trim() === '') return undefined;
  if (jsonDepth(text, maxDepth) > maxDepth) {
    throw new HttpProblem(400, 'validation_error', `The request body is nested deeper than ${maxDepth} levels.`, '');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpProblem(400, 'validation_error', 'The request body is not valid JSON.', '');
  }
}

/** Headers every answer carries: nothing is sniffed, nothing is cached by a shared proxy. */
const BASE_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The service's error body shape, so the browser's client reads host errors like service errors. */
export function sendError(res: ServerResponse, status: number, type: string, message: string, extra: { action?: string; field?: string; allowed_values?: (string | number)[] } = {}, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { code: status, type, message, ...extra } }, headers);
}

export function sendBytes(res: ServerResponse, status: number, body: Buffer, contentType: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': contentType, 'content-length': body.length, ...headers });
  res.end(body);
}
