import { ServiceClient } from '../../../src/client';
import { clientBackend } from './client-backend';
import { hostConnection } from './host-connection';
import { userToken } from './sign-in';
import { AddinRuntime, getRuntimeIfReady, setRuntime } from './runtime';

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
  const runtime = new AddinRuntime(clientBackend(client));
  setRuntime(runtime);
  return runtime;
}
