import { ServiceClient } from '../../../src/client';
import { clientBackend } from './client-backend';
import { hostConnection } from './host-connection';
import { hostReads, hostUnreachable } from './host-history';
import { addinTranslator, displayLanguageHeader } from './display-language';
import { signInHeaders, userToken } from './sign-in';
import { browserStorage } from './page-storage';
import { AddinRuntime, getRuntimeIfReady, setRuntime, type ServiceSource } from './runtime';

/** The host's status names the service it forwards to and whether it is the sandbox (signed in: Entra mode gates it too). */
async function hostSource(headers: Record<string, string>): Promise<ServiceSource> {
  const signedIn = { ...headers, ...(await signInHeaders()) };
  let res: Response;
  try {
    res = await fetch('/addin/status', { headers: { ...signedIn, ...displayLanguageHeader() }, credentials: 'omit' });
  } catch (err) {
    // A card whose host is down is "unreachable" (and shows its last known answer).
    throw hostUnreachable(err);
  }
  if (!res.ok) throw Object.assign(new Error(addinTranslator().t('addin.fn_host_status_own', { status: String(res.status) })), { status: res.status });
  const status = (await res.json()) as Partial<ServiceSource>;
  return { service: typeof status.service === 'string' ? status.service : addinTranslator().t('addin.unknown_service'), sandbox: status.sandbox === true };
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
  // Each /api request states Excel's display language at the time it is sent: the host's own refusals (budget, daily share, sign-in) come back in it.
  const fetchInLanguage = (input: string, init: RequestInit) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), ...displayLanguageHeader() } });
  const client = new ServiceClient({ baseUrl, headers, tokenProvider: () => userToken(), rateLimitKey: `${baseUrl}#addin`, fetch: fetchInLanguage });
  const runtime = new AddinRuntime(clientBackend(client, hostReads(window.location.origin, headers)), { source: () => hostSource(headers), storage: storage.machine() });
  setRuntime(runtime);
  return runtime;
}
