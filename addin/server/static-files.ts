import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { sendBytes } from './http-util';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Serves a file under `root` only. `decodedPath` is the request path already decoded and
 * checked by decodeRequestPath (it is not decoded again, so what the host checked is what is
 * served); the resolved file must still lie inside root. `html` may rewrite a page as it goes out.
 */
export async function serveFile(res: ServerResponse, root: string, decodedPath: string, options: { cacheControl?: string; html?: (page: string) => string } = {}): Promise<boolean> {
  const rootResolved = path.resolve(root);
  const file = path.resolve(rootResolved, '.' + path.posix.normalize('/' + decodedPath));
  if (file !== rootResolved && !file.startsWith(rootResolved + path.sep)) return false;
  const ext = path.extname(file).toLowerCase();
  const type = TYPES[ext];
  if (!type) return false;
  let body: Buffer;
  try {
    body = await fs.readFile(file);
  } catch {
    return false;
  }
  if (ext === '.html' && options.html) body = Buffer.from(options.html(body.toString('utf8')), 'utf8');
  sendBytes(res, 200, body, type, { 'cache-control': options.cacheControl ?? 'no-cache' });
  return true;
}
