import { isHashedFile, isNeverCached } from '../../contract/page-cache';
import { OFFICE_JS_CDN, OFFICE_JS_LOCAL_PREFIX } from '../../contract/office-js-cdn';

/** Where office.js and the files it loads come from: Microsoft's CDN, or the host's own copy (ADDIN_OFFICE_JS=local). */
const OFFICE_JS_CDN_FOLDER = OFFICE_JS_CDN.slice(0, OFFICE_JS_CDN.lastIndexOf('/') + 1);

/**
 * How the worker answers one GET:
 * - `pass`: not at all (the browser asks the network as if there were no worker): the API,
 *   sign-in, settings, anything this version did not list.
 * - `cache-first`: a content-hashed file of this version: its name never changes meaning.
 * - `network-first`: a file with a fixed name (the entry pages, functions.json, the icons):
 *   the host's copy when it answers, this version's kept copy when it cannot be reached.
 * - `office-js`: Microsoft's office.js and the files it loads: network first, kept for offline.
 */
export type Strategy = 'pass' | 'cache-first' | 'network-first' | 'office-js';

/** The path a request is kept under: without its query (the deployment key and Office's host information travel there). */
export function keptPath(url: URL): string {
  return url.pathname === '/' ? '/taskpane.html' : url.pathname;
}

export function strategyFor(url: URL, origin: string, listed: ReadonlySet<string>, requestHasCredentials: boolean): Strategy {
  if (requestHasCredentials) return 'pass';
  if (url.origin !== origin) return url.href.startsWith(OFFICE_JS_CDN_FOLDER) ? 'office-js' : 'pass';
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return 'pass';
  }
  if (isNeverCached(path)) return 'pass';
  if (path.startsWith(OFFICE_JS_LOCAL_PREFIX)) return 'office-js';
  const kept = keptPath(url);
  if (!listed.has(kept)) return 'pass';
  return isHashedFile(kept) ? 'cache-first' : 'network-first';
}
