import { ServiceClient } from '../../../src/client';
import { clientBackend } from './client-backend';
import { hostConnection } from './host-connection';
import { signInHeaders, userToken } from './sign-in';
import { asyncStorage, lazyStorage, type MachineStorage } from '../dispatcher/machine-storage';
import { AddinRuntime, getRuntimeIfReady, setRuntime, type ServiceSource } from './runtime';

/**
 * Where answers and the offline setting are kept on this machine: OfficeRuntime.storage where
 * the Office runtime provides it (the shared runtime; 10 MB per add-in, answer-store.ts keeps
 * within it), else the page's localStorage (the host's origin). Neither exists under strict
 * privacy settings: nothing is kept then.
 */
function machineStorage(): MachineStorage | undefined {
  try {
    const office = (globalThis as { OfficeRuntime?: { storage?: MachineStorage } }).OfficeRuntime;
    if (office?.storage) return office.storage;
    return asyncStorage(window.localStorage);
  } catch {
    return undefined;
  }
}

/** The host's status names the service it forwards to and whether it is the sandbox (signed in: Entra mode gates it too). */
async function hostSource(headers: Record<string, string>): Promise<ServiceSource> {
  const res = await fetch('/addin/status', { headers: { ...headers, ...(await signInHeaders()) }, credentials: 'omit' });
  if (!res.ok) throw new Error(`The add-in host answered ${res.status} for its status.`);
  const status = (await res.json()) as Partial<ServiceSource>;
  return { service: typeof status.service === 'string' ? status.service : 'unknown service', sandbox: status.sandbox === true };
}

/**
 * The runtime of the page Excel loads (functions and task pane share it). One ServiceClient
 * talks to the add-in host; it carries no service credentials (the host adds its own token) —
 * only the user's sign-in when the host uses Entra ID (sign-in.ts) — and its rate
 * limiter learns the account's limits from the X-RateLimit-* headers the host passes on.
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
