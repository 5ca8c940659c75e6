import { ServiceClient } from '../../../src/client';
import { clientBackend } from './client-backend';
import { hostConnection } from './host-connection';
import { signInHeaders, userToken } from './sign-in';
import { asyncStorage, lazyStorage, type MachineStorage } from '../dispatcher/machine-storage';
import { AddinRuntime, getRuntimeIfReady, setRuntime, type ServiceSource } from './runtime';

const officeRuntimeStorage = () => (globalThis as { OfficeRuntime?: { storage?: MachineStorage } }).OfficeRuntime?.storage;
/** How long to wait for Office's runtime script before settling for localStorage. */
const OFFICE_RUNTIME_WAIT_MS = 10_000;

/**
 * Where answers and the offline setting are kept on this machine: OfficeRuntime.storage where
 * the Office runtime provides it (the shared runtime; 10 MB per add-in, answer-store.ts keeps
 * within it), else the page's localStorage (the host's origin). office.js loads the script that
 * defines OfficeRuntime after our bundles, so the choice waits for it (or for Office.onReady)
 * when office.js is on the page. Neither storage exists under strict privacy settings: nothing
 * is kept then.
 */
async function machineStorage(): Promise<MachineStorage | undefined> {
  if (typeof Office !== 'undefined') {
    await new Promise<void>((resolve) => {
      const started = Date.now();
      const check = () => (officeRuntimeStorage() || Date.now() - started > OFFICE_RUNTIME_WAIT_MS ? resolve() : setTimeout(check, 25));
      Office.onReady?.().then(() => resolve(), () => resolve());
      check();
    });
  }
  try {
    return officeRuntimeStorage() ?? asyncStorage(window.localStorage);
  } catch {
    return undefined;
  }
}

/** The host's status names the service it forwards to and whether it is the sandbox (signed in: Entra mode gates it too). */
async function hostSource(headers: Record<string, string>): Promise<ServiceSource> {
  const signedIn = { ...headers, ...(await signInHeaders()) };
  let res: Response;
  try {
    res = await fetch('/addin/status', { headers: signedIn, credentials: 'omit' });
  } catch (err) {
    // Named as the client names it, so a card whose host is down is "unreachable" (and shows its last known answer).
    throw Object.assign(new Error(`The add-in host cannot be reached: ${err instanceof Error ? err.message : String(err)}`), { name: 'ConnectionError' });
  }
  if (!res.ok) throw Object.assign(new Error(`The add-in host answered ${res.status} for its status.`), { status: res.status });
  const status = (await res.json()) as Partial<ServiceSource>;
  return { service: typeof status.service === 'string' ? status.service : 'unknown service', sandbox: status.sandbox === true };
}

/**
 * The runtime of the page Excel loads (functions and task pane share it). One ServiceClient
 * talks to the add-in host; it carries no service credentials (the host adds its own token) —
 * only the user's sign-in when the host uses Entra ID (sign-in.ts). It does not pace itself:
 * the host paces the upstream calls; the browser honours the host's 429s (Retry-After) and
 * learns the day's budget from the headers the host passes on (addin/server/proxy.ts).
 */
export function installBrowserRuntime(): AddinRuntime {
  const existing = getRuntimeIfReady();
  if (existing) return existing;
  const { baseUrl, headers } = hostConnection(window.location, window.sessionStorage);
  const client = new ServiceClient({ baseUrl, headers, tokenProvider: () => userToken(), rateLimitKey: `${baseUrl}#addin` });
  const runtime = new AddinRuntime(clientBackend(client), { source: () => hostSource(headers), storage: lazyStorage(machineStorage) });
  setRuntime(runtime);
  return runtime;
}
