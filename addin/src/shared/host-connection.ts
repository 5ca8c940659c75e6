import { DEPLOYMENT_KEY_PARAM } from '../../contract/deployment-key';
import type { SyncStorage } from './safe-storage';

/** Header the host checks when it requires a deployment key. */
export const DEPLOYMENT_KEY_HEADER = 'x-addin-deployment-key';
/**
 * Header every request of the add-in's own pages carries. A page on another site cannot send
 * a custom header to the host without a CORS preflight the host never grants, so requiring it
 * on every route that spends or changes anything refuses cross-site requests.
 */
export const ADDIN_REQUEST_HEADER = 'x-svc-addin';
export const ADDIN_REQUEST_HEADER_VALUE = '1';
/** The host's API proxy lives here, relative to the page's origin. */
export const API_PREFIX = '/api/v1';
const STORAGE_KEY = 'svc-addin-deployment-key';

/**
 * Where the page's requests go: its own origin (the add-in host), never the service itself,
 * and with no credentials of any kind; the host adds the token. The deployment key, when the
 * manifest carries one, comes in the page URL and is kept for the session.
 */
export function hostConnection(location: { origin: string; search: string }, storage?: Pick<SyncStorage, 'getItem' | 'setItem'>): { baseUrl: string; headers: Record<string, string> } {
  const fromUrl = new URLSearchParams(location.search).get(DEPLOYMENT_KEY_PARAM) ?? undefined;
  let key = fromUrl;
  // The storage given never throws (safe-storage.ts): where the browser refuses it, the key is kept in memory.
  if (fromUrl) storage?.setItem(STORAGE_KEY, fromUrl);
  else key = storage?.getItem(STORAGE_KEY) ?? undefined;
  const headers: Record<string, string> = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE };
  if (key) headers[DEPLOYMENT_KEY_HEADER] = key;
  return { baseUrl: `${location.origin}${API_PREFIX}`, headers };
}
