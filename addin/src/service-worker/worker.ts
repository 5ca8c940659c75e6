/**
 * The add-in's service worker (sw.js, scope the host's root): keeps one version's files so a
 * workbook opened before starts its runtime when the host cannot be reached. The build defines
 * the version and its file list (build.ts); one Cache Storage cache per version, filled whole at
 * install (each file checked against the build's hash, each page against its version, so two
 * versions' files never meet in it), older versions' caches deleted when this one takes over.
 * Nothing of the API, sign-in or settings passes through it (strategy.ts).
 */
import { KEEP_OFFICE_JS, OFFICE_JS_CACHE, SKIP_WAITING, VERSION_CACHE_PREFIX, VERSION_META } from '../../contract/page-cache';
import { keptPath, strategyFor } from './strategy';

/** [path, sha-256 hex] for files kept byte for byte; [path, null] for pages (the host may rewrite their office.js tag), checked by their version tag. */
declare const __SVC_ADDIN_VERSION__: string;
declare const __SVC_ADDIN_FILES__: [string, string | null][];

/** The parts of the worker's global scope used here (the project's TypeScript lib is DOM, not WebWorker). */
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(r: Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}
interface WorkerScope {
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (e: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (e: ExtendableMessageEvent) => void): void;
}
const worker = self as unknown as WorkerScope;

const VERSION = __SVC_ADDIN_VERSION__;
const CACHE = `${VERSION_CACHE_PREFIX}${VERSION}`;
const LISTED = new Set(__SVC_ADDIN_FILES__.map(([p]) => p));
/** How long a fixed-name file waits for the host before this version's copy is used (a host that does not answer rather than refuses). */
const NETWORK_WAIT_MS = 5_000;

class WrongVersionError extends Error {
  override name = 'WrongVersionError';
}

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One listed file from the host, refused unless it is exactly this version's. */
async function fetchChecked(path: string, sha: string | null): Promise<Response> {
  const res = await fetch(path, { cache: 'no-store', credentials: 'omit' });
  if (!res.ok) throw new WrongVersionError(`${path}: the host answered ${res.status}`);
  const body = await res.clone().arrayBuffer();
  if (sha !== null) {
    if ((await sha256Hex(body)) !== sha) throw new WrongVersionError(`${path} is not version ${VERSION}'s`);
  } else {
    const page = new TextDecoder().decode(body);
    if (!page.includes(`<meta name="${VERSION_META}" content="${VERSION}">`)) throw new WrongVersionError(`${path} is not version ${VERSION}'s`);
  }
  return res;
}

// Install: every file or none (a deployment mid-way fails the install; the browser tries again on the next open).
worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const responses = await Promise.all(__SVC_ADDIN_FILES__.map(async ([path, sha]) => [path, await fetchChecked(path, sha)] as const));
      const cache = await caches.open(CACHE);
      await Promise.all(responses.map(([path, res]) => cache.put(path, res)));
      await worker.skipWaiting();
    })(),
  );
});

/** The older versions' caches; office.js's stays (Microsoft's files, refreshed as they are used). */
async function deleteOlderVersions(): Promise<void> {
  for (const name of await caches.keys()) {
    if (name.startsWith(VERSION_CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
  }
}

// Activate: the older versions' caches go.
worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await deleteOlderVersions();
      await worker.clients.claim();
    })(),
  );
});

/** The network's answer, unless it fails, is a server error (a proxy's 502 for a host that is down), or takes too long while a kept copy exists. */
async function networkFirst(request: Request, kept: () => Promise<Response | undefined>): Promise<Response> {
  const network = fetch(request);
  // Answered from the kept copy, a late failure of the network is nobody's concern.
  network.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), NETWORK_WAIT_MS);
  });
  try {
    const first = await Promise.race([network, slow]);
    if (first !== 'slow' && first.status < 500) return first;
    const copy = await kept();
    if (copy) return copy;
    return await network;
  } catch (err) {
    const copy = await kept();
    if (copy) return copy;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Responses office.js's files may be kept from: opaque (the CDN's, fetched no-cors) or ok, and not marked no-store. */
function storable(res: Response): boolean {
  return (res.type === 'opaque' || res.ok) && !/no-store/i.test(res.headers.get('cache-control') ?? '');
}

/** `later` carries the copy into the cache after the answer has gone to the page (awaiting it first can stall a large body's tee). */
async function officeJs(request: Request, later: (p: Promise<unknown>) => void): Promise<Response> {
  const cache = await caches.open(OFFICE_JS_CACHE);
  let fromCache = false;
  const res = await networkFirst(request, async () => {
    const copy = await cache.match(request.url);
    fromCache = copy !== undefined;
    return copy;
  });
  if (storable(res) && !fromCache) later(cache.put(request.url, res.clone()).catch(() => undefined));
  return res;
}

/**
 * office.js's files a page loaded before this worker controlled it (the first open): the page
 * names them (offline-pages.ts), the worker fetches those it does not hold (the browser's
 * HTTP cache usually answers). Only URLs the strategy calls office.js's are taken.
 */
async function keepOfficeJs(urls: unknown[]): Promise<void> {
  const cache = await caches.open(OFFICE_JS_CACHE);
  for (const text of urls) {
    if (typeof text !== 'string') continue;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      continue;
    }
    if (strategyFor(url, worker.location.origin, LISTED, false) !== 'office-js' || (await cache.match(url.href))) continue;
    try {
      const res = await fetch(url.href, { credentials: 'omit', mode: url.origin === worker.location.origin ? 'same-origin' : 'no-cors' });
      if (storable(res)) await cache.put(url.href, res);
    } catch {
      // Not reachable now: the next open that loads it through the worker keeps it.
    }
  }
}

worker.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; urls?: unknown } | null;
  if (data?.type === KEEP_OFFICE_JS && Array.isArray(data.urls)) event.waitUntil(keepOfficeJs(data.urls));
  if (data?.type === SKIP_WAITING) event.waitUntil(worker.skipWaiting());
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const strategy = strategyFor(url, worker.location.origin, LISTED, request.headers.has('authorization'));
  if (strategy === 'pass') return;
  // An old version's worker still finishing a request when this one took over can write its
  // cache again after the deletion at activation: every open of a page sweeps once more.
  if (request.mode === 'navigate') event.waitUntil(deleteOlderVersions());
  const kept = async () => (await caches.open(CACHE)).match(keptPath(url));
  if (strategy === 'office-js') return event.respondWith(officeJs(request, (p) => event.waitUntil(p)));
  if (strategy === 'network-first') return event.respondWith(networkFirst(request, kept));
  event.respondWith(kept().then((copy) => copy ?? fetch(request)));
});
