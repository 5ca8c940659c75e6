import { KEEP_OFFICE_JS, SERVICE_WORKER_PATH, SKIP_WAITING } from '../../contract/page-cache';
import { strategyFor } from '../service-worker/strategy';

/** What came of asking for the offline copy of the pages (shown nowhere; a console line for support). */
export type PageCacheOutcome = 'registered' | 'unsupported' | 'refused';

/**
 * Registers sw.js (service-worker/worker.ts), which keeps this version's pages so the next
 * open works without the host. Never lets a refusal stop the pane: a browser that blocks
 * third-party storage refuses workers in Excel on the web's frame too, and older Office
 * webviews (IE11, EdgeHTML) have none (docs/addin.md).
 */
export async function registerPageCache(nav: Navigator = navigator): Promise<PageCacheOutcome> {
  try {
    if (!window.isSecureContext || !('serviceWorker' in nav)) return 'unsupported';
    // updateViaCache 'none': sw.js is always asked of the host, so a deployment is seen on the next online open.
    const registration = await nav.serviceWorker.register(SERVICE_WORKER_PATH, { scope: '/', updateViaCache: 'none' });
    takeOverWhenInstalled(registration);
    nameOfficeJsFiles(nav.serviceWorker);
    return 'registered';
  } catch (err) {
    console.info(`The add-in's pages are not kept for offline use: ${err instanceof Error ? err.message : String(err)}`);
    return 'refused';
  }
}

/** A new version's worker that installed but waits (worker.ts SKIP_WAITING says why) is told to take over. */
function takeOverWhenInstalled(registration: ServiceWorkerRegistration): void {
  const nudge = () => registration.waiting?.postMessage({ type: SKIP_WAITING });
  nudge();
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') nudge();
    });
  });
}

/**
 * Tells the worker office.js's files this page loaded and loads later (office.js loads its
 * host's files as it starts): on the first open the worker did not see them, and without
 * office.js kept, the next open without the network could not start.
 */
function nameOfficeJsFiles(container: ServiceWorkerContainer): void {
  if (typeof PerformanceObserver === 'undefined') return;
  const isOfficeJs = (name: string) => {
    try {
      return strategyFor(new URL(name), location.origin, new Set(), false) === 'office-js';
    } catch {
      return false;
    }
  };
  const send = (urls: string[]) => {
    if (urls.length > 0) void container.ready.then((r) => r.active?.postMessage({ type: KEEP_OFFICE_JS, urls }));
  };
  new PerformanceObserver((list) => send(list.getEntries().map((e) => e.name).filter(isOfficeJs))).observe({ type: 'resource', buffered: true });
}
