import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { sendBytes } from './http-util';

/** The types the host serves; a file of any other type is never sent. */
export const STATIC_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

export interface ServeOptions {
  cacheControl?: string;
  /** May rewrite a page as it goes out. */
  html?: (page: string) => string;
}

/**
 * Serves a file under `root` only (office.js's npm copy). `decodedPath` is the request path already
 * decoded and checked by decodeRequestPath (it is not decoded again, so what the host checked is
 * what is served); the resolved file must still lie inside root and be a regular file.
 */
export async function serveFile(res: ServerResponse, root: string, decodedPath: string, options: ServeOptions = {}): Promise<boolean> {
  const rootResolved = path.resolve(root);
  const file = path.resolve(rootResolved, '.' + path.posix.normalize('/' + decodedPath));
  if (file !== rootResolved && !file.startsWith(rootResolved + path.sep)) return false;
  return sendFile(res, file, options);
}

/** Sends one file the caller has already decided is public (addin/dist's allow-list); false when it is not there or not a regular file. */
export async function sendFile(res: ServerResponse, file: string, options: ServeOptions = {}): Promise<boolean> {
  const ext = path.extname(file).toLowerCase();
  const type = STATIC_TYPES[ext];
  if (!type) return false;
  let body: Buffer;
  try {
    if (!(await fs.lstat(file)).isFile()) return false;
    body = await fs.readFile(file);
  } catch {
    return false;
  }
  if (ext === '.html' && options.html) body = Buffer.from(options.html(body.toString('utf8')), 'utf8');
  sendBytes(res, 200, body, type, { 'cache-control': options.cacheControl ?? 'no-cache' });
  return true;
}
