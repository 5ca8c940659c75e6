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
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpProblem(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJson(req: IncomingMessage, limit?: number): Promise<unknown> {
  const text = await readBody(req, limit);
  if (text.trim() === '') return undefined;
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
