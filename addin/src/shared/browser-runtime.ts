import { ServiceClient } from '../../../src/client';
import { clientBackend } from './client-backend';
import { hostConnection } from './host-connection';
import { hostReads } from './host-history';
import { signInHeaders, userToken } from './sign-in';
import { browserStorage } from './page-storage';
import { AddinRuntime, getRuntimeIfReady, setRuntime, type ServiceSource } from './runtime';

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
  // Through the page's safe storage: where the browser blocks the frame's storage, reading window.sessionStorage throws and the runtime never started.
  const storage = browserStorage();
  const { baseUrl, headers } = hostConnection(window.location, storage.page('sessionStorage'));
  const client = new ServiceClient({ baseUrl, headers, tokenProvider: () => userToken(), rateLimitKey: `${baseUrl}#addin` });
  const runtime = new AddinRuntime(clientBackend(client, hostReads(window.location.origin, headers)), { source: () => hostSource(headers), storage: storage.machine() });
  setRuntime(runtime);
  return runtime;
}
