import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { sendBytes, sendError } from './http-util';

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
 * Serves files under `root` only: the URL path is decoded, normalised and checked to stay
 * inside root, so `..`, encoded slashes and absolute paths cannot reach anything else.
 */
export async function serveFile(res: ServerResponse, root: string, urlPath: string, cacheControl = 'no-cache'): Promise<boolean> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    sendError(res, 400, 'validation_error', 'The path is not valid.');
    return true;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return false;
  const rootResolved = path.resolve(root);
  const file = path.resolve(rootResolved, '.' + path.posix.normalize('/' + decoded));
  if (file !== rootResolved && !file.startsWith(rootResolved + path.sep)) return false;
  const type = TYPES[path.extname(file).toLowerCase()];
  if (!type) return false;
  try {
    const body = await fs.readFile(file);
    sendBytes(res, 200, body, type, { 'cache-control': cacheControl });
    return true;
  } catch {
    return false;
  }
}
