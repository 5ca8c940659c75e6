/**
 * What may be kept, by whom, and for how long: one set of rules for the build (which names
 * carry a content hash), the host (Cache-Control) and the service worker (what it keeps and
 * serves when the host cannot be reached). See docs/addin.md "Pages without the host".
 */

/** The service worker's path; served `no-cache` so a new deployment is seen on the next online open. */
export const SERVICE_WORKER_PATH = '/sw.js';

/** The meta tag each entry page carries with its build's version (the worker checks it before keeping a page). */
export const VERSION_META = 'svc-addin-version';

/** Cache Storage names: one per add-in version, and one for office.js (Microsoft's files, not versioned by this build). */
export const VERSION_CACHE_PREFIX = 'svc-addin-v-';
export const OFFICE_JS_CACHE = 'svc-addin-office-js';

/** The page's message to the worker naming office.js's files it loaded (kept for offline opens). */
export const KEEP_OFFICE_JS = 'svc-addin:keep-office-js';

/**
 * The page's message to a worker that installed but waits: take over now. The worker calls
 * skipWaiting() itself at install, but Chromium parks it in waiting when the page's own
 * requests reach the outgoing worker at the moment of the switch (a recalculation's batches).
 */
export const SKIP_WAITING = 'svc-addin:skip-waiting';

/** Content-hashed names the build writes: `taskpane.0123456789abcdef.js`. */
const HASHED_FILE = /\.[0-9a-f]{16}\.(js|css|png|svg)$/;
export const HASH_LENGTH = 16;

export function isHashedFile(decodedPath: string): boolean {
  return HASHED_FILE.test(decodedPath);
}

/** `name.ext` → `name.HASH.ext` (`assets/icon-32.png` → `assets/icon-32.0123456789abcdef.png`). */
export function hashedName(file: string, hash: string): string {
  const dot = file.lastIndexOf('.');
  return `${file.slice(0, dot)}.${hash.slice(0, HASH_LENGTH)}${file.slice(dot)}`;
}

/**
 * Paths whose answers hold a user's token, the account's figures, sign-in settings or a
 * deployment's key, or that must always come fresh: never kept by the worker, and sent
 * `no-store` (the API) or `no-cache` (sw.js) by the host.
 */
export function isNeverCached(decodedPath: string): boolean {
  return (
    /^\/(api|addin|auth|signin|sign-in|oauth2?)(\/|$)/i.test(decodedPath) ||
    /^\/(healthz|readyz|metrics)$/.test(decodedPath) ||
    /^\/(auth-config\.json|manifest\.xml|build-info\.json)$/i.test(decodedPath) ||
    decodedPath === SERVICE_WORKER_PATH
  );
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The host's Cache-Control for a static file: a hashed file never changes under its name
 * (kept a year, by browsers and proxies); the sign-in settings are not kept at all; everything
 * else — the entry pages the manifest names, sw.js, functions.json — is revalidated on every
 * use (`no-cache`), so a deployment is seen at once.
 */
export function staticCacheControl(decodedPath: string): string {
  if (isHashedFile(decodedPath)) return IMMUTABLE;
  if (/^\/auth-config\.json$/i.test(decodedPath)) return 'no-store';
  return 'no-cache';
}
