import { pageSafeStorage, SafeStorage } from './safe-storage';

/** How long to wait for Office's runtime script before settling for localStorage. */
const OFFICE_RUNTIME_WAIT_MS = 10_000;

/**
 * office.js loads the script that defines OfficeRuntime after our bundles, so the machine
 * store's choice waits for it (or for Office.onReady) when office.js is on the page; without
 * office.js (a page opened in a plain browser) there is nothing to wait for.
 */
function officeRuntimeLoaded(): Promise<void> {
  if (typeof Office === 'undefined') return Promise.resolve();
  return new Promise<void>((resolve) => {
    const started = Date.now();
    const hasStorage = () => (globalThis as { OfficeRuntime?: { storage?: unknown } }).OfficeRuntime?.storage !== undefined;
    const check = () => (hasStorage() || Date.now() - started > OFFICE_RUNTIME_WAIT_MS ? resolve() : setTimeout(check, 25));
    Office.onReady?.().then(
      () => resolve(),
      () => resolve(),
    );
    check();
  });
}

/** The page's storage, every use of it in the add-in's browser code (safe-storage.ts says why). */
export function browserStorage(): SafeStorage {
  return pageSafeStorage(() => new SafeStorage(() => window, officeRuntimeLoaded));
}
