import type { IncomingMessage, ServerResponse } from 'node:http';
import { drainRequest } from '../../src/drain-request';
import { hostText, inEnglish, sayTo, type HostText } from './host-text';

export const MAX_BODY_BYTES = 1024 * 1024;

/** A refusal with its status and machine code; `text` (when the host composed the sentence) is said in the request's language. */
export class HttpProblem extends Error {
  readonly text: string | HostText;
  constructor(
    readonly status: number,
    readonly type: string,
    message: string | HostText,
    readonly field?: string,
  ) {
    super(inEnglish(message));
    this.text = message;
  }
}

/** The body as text, refused beyond the service's own 1 MiB limit. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const tooLarge = () => new HttpProblem(413, 'payload_too_large', hostText('addin.host_body_too_large', { limit: String(limit) }));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  // Listeners rather than `for await`: leaving that loop destroys the socket, and a client still
  // sending would see a broken pipe instead of the 413 (sendJson reads the rest, bounded, first).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      reject(tooLarge());
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (e: Error) => {
      stop();
      reject(e);
    };
    const onClose = () => {
      stop();
      reject(new HttpProblem(400, 'request_incomplete', hostText('addin.host_body_incomplete')));
    };
    function stop() {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    }
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
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
    throw new HttpProblem(400, 'validation_error', hostText('addin.host_body_too_deep', { depth: String(maxDepth) }), '');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpProblem(400, 'validation_error', hostText('addin.host_body_not_json'), '');
  }
}

/** Headers every answer carries: nothing is sniffed, nothing is cached by a shared proxy. */
const BASE_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  // After a 413 the connection is not trusted with another request.
  const all = { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(text)), ...headers, ...(status === 413 ? { connection: 'close' } : {}) };
  const req = res.req as IncomingMessage | undefined;
  if (!req || req.complete) return writeJson(res, status, all, text);
  // A body nobody read (refused before or while reading it): read the rest first (bounded), so a
  // client still sending gets this answer instead of a broken pipe.
  void drainRequest(req).then((ended) => writeJson(res, status, ended ? all : { ...all, connection: 'close' }, text));
}

function writeJson(res: ServerResponse, status: number, headers: Record<string, string>, text: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, headers);
  res.end(text);
}

/** The error type each answer was sent with (the audit line names it). */
const errorTypes = new WeakMap<ServerResponse, string>();

/**
 * The service's error body shape, so the browser's client reads host errors like service errors.
 * The host's own sentences (a HostText) in the request's language (host-text.ts); `type` stays the machine code.
 */
export function sendError(res: ServerResponse, status: number, type: string, message: string | HostText, extra: { action?: string; field?: string; allowed_values?: (string | number)[] } = {}, headers: Record<string, string> = {}): void {
  errorTypes.set(res, type);
  sendJson(res, status, { error: { code: status, type, message: sayTo(res.req, message), ...extra } }, headers);
}

/** The `error.type` of the error answer sent on `res`, if one was. */
export function errorTypeOf(res: ServerResponse): string | undefined {
  return errorTypes.get(res);
}

export function sendBytes(res: ServerResponse, status: number, body: Buffer, contentType: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': contentType, 'content-length': body.length, ...headers });
  res.end(body);
}
