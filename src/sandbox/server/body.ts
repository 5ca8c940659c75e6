import type { IncomingMessage } from 'node:http';
import { HttpError, validationError } from './http-error';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The caller went away before its body was read (it aborted, e.g. during an injected latency). */
export class ClientClosedRequest extends Error {
  constructor() {
    super('the client closed the connection before sending its whole request');
  }
}

const tooLarge = () => new HttpError('payload_too_large', `the request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`);

/**
 * Reads a JSON body: undefined when there is none. Stops reading as soon as the body passes
 * 1 MiB (or the declared length does), so an oversize upload is never buffered.
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'];
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  // Already gone (aborted while the request waited): a destroyed stream never emits 'end'.
  if (req.destroyed) return Promise.reject(new ClientClosedRequest());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('close', () => {
      if (!req.complete && !failed) {
        failed = true;
        reject(new ClientClosedRequest());
      }
    });
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
    req.on('end', () => {
      if (failed) return;
      if (size === 0) return resolve(undefined);
      if (type !== undefined && !isJsonType(type)) {
        return reject(new HttpError('unsupported_media_type', `Content-Type must be application/json, got '${type.slice(0, 100)}'`));
      }
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(validationError('', 'the request body is not valid JSON'));
      }
    });
  });
}

function isJsonType(type: string): boolean {
  const t = type.split(';')[0]!.trim().toLowerCase();
  return t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));
}
