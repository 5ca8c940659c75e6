/// <reference types="office-js" />
import { createNestablePublicClientApplication, type AccountInfo, type AuthenticationResult, type IPublicClientApplication } from '@azure/msal-browser';
import { browserStorage } from './page-storage';
import type { SafeStorage } from './safe-storage';
import { addinTranslator } from './display-language';

/** What a cell says, and the pane offers, when the host needs a sign-in the page does not have: in Excel's display language. */
export class SignInRequiredError extends Error {
  override name = 'SignInRequiredError';
  constructor() {
    super(addinTranslator().t('addin.err_sign_in'));
  }
}

/** The MSAL configuration addin:build writes to auth-config.json when the host uses Entra ID sign-in. */
export interface SignInSettings {
  clientId: string;
  /** https://login.microsoftonline.com/<tenant> */
  authority: string;
  /** The add-in API's scope, e.g. api://addin.example.com/<client id>/access_as_user. */
  scopes: string[];
}

export interface SignedInUser {
  name: string;
}

/**
 * Where the page's access tokens come from. In Office: MSAL (nested app authentication, then
 * Office's own SSO, then an MSAL popup). A test page sets `window.__svcTokenBroker` to a token
 * provider of its own in place of the Office host's broker.
 */
export interface TokenBroker {
  /** A token without asking the user; undefined when only a sign-in would give one. */
  silent(): Promise<string | undefined>;
  /** Asks the user (a popup or Office dialog): only from a click in the task pane. */
  interactive(): Promise<string>;
  /** Who is signed in, once a token was had. */
  user(): SignedInUser | undefined;
}

declare global {
  interface Window {
    __svcTokenBroker?: TokenBroker;
  }
}

let broker: Promise<TokenBroker | null> | undefined;

/** The page's broker, or null when the host needs no sign-in (no auth-config.json: ADDIN_AUTH key or none). */
export function tokenBroker(): Promise<TokenBroker | null> {
  broker ??= (async () => {
    if (window.__svcTokenBroker) return window.__svcTokenBroker;
    const settings = await loadSettings();
    return settings ? msalBroker(settings) : null;
  })();
  return broker;
}

/** Headers carrying the user's token for a request to the host; throws SignInRequiredError when there is none to be had silently. */
export async function signInHeaders(): Promise<Record<string, string>> {
  const b = await tokenBroker();
  if (!b) return {};
  const token = await b.silent();
  if (!token) throw new SignInRequiredError();
  return { authorization: `Bearer ${token}` };
}

/** The ServiceClient's tokenProvider: the user's token for the host, or SignInRequiredError (cells then show it as #N/A). */
export async function userToken(): Promise<string | undefined> {
  const b = await tokenBroker();
  if (!b) return undefined;
  const token = await b.silent();
  if (!token) throw new SignInRequiredError();
  return token;
}

async function loadSettings(): Promise<SignInSettings | null> {
  try {
    const res = await fetch('auth-config.json', { credentials: 'omit' });
    if (!res.ok) return null;
    const s = (await res.json()) as Partial<SignInSettings>;
    return typeof s.clientId === 'string' && typeof s.authority === 'string' && Array.isArray(s.scopes) ? (s as SignInSettings) : null;
  } catch {
    return null;
  }
}

/** The name a token's payload carries, for display only (the host validates tokens; the page never trusts this). */
function nameInToken(token: string): string | undefined {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { name?: string; preferred_username?: string };
    return payload.name ?? payload.preferred_username;
  } catch {
    return undefined;
  }
}

/**
 * Where MSAL keeps its token cache: localStorage where the browser allows it (a sign-in
 * outlives the session), sessionStorage where only that works, else memory (sign in again
 * each session). MSAL would fall back to memory by itself, but only after logging an error
 * for a store it was told to use; its temporary cache always tries sessionStorage and falls
 * back to memory on its own.
 */
export function msalCacheLocation(storage: Pick<SafeStorage, 'available'>): 'localStorage' | 'sessionStorage' | 'memoryStorage' {
  if (storage.available('localStorage')) return 'localStorage';
  if (storage.available('sessionStorage')) return 'sessionStorage';
  return 'memoryStorage';
}

/**
 * MSAL's nestable client: in an Office host with nested app authentication it asks Office's
 * broker; elsewhere it is an ordinary browser client (popup). When MSAL cannot get a token
 * silently, Office's SSO (Office.auth.getAccessToken) is tried before giving up.
 */
async function msalBroker(settings: SignInSettings): Promise<TokenBroker> {
  const pca: IPublicClientApplication = await createNestablePublicClientApplication({
    auth: { clientId: settings.clientId, authority: settings.authority, redirectUri: `${location.origin}/taskpane.html` },
    cache: { cacheLocation: msalCacheLocation(browserStorage()) },
  });
  let user: SignedInUser | undefined;
  const remember = (r: AuthenticationResult): string => {
    if (r.account) pca.setActiveAccount(r.account);
    user = { name: r.account?.name ?? r.account?.username ?? nameInToken(r.accessToken) ?? addinTranslator().t('addin.signed_in_fallback') };
    return r.accessToken;
  };
  const account = (): AccountInfo | undefined => pca.getActiveAccount() ?? pca.getAllAccounts()[0];
  return {
    async silent() {
      try {
        return remember(await pca.acquireTokenSilent({ scopes: settings.scopes, account: account() }));
      } catch {
        // No cached account or consent: Office's own SSO may still have one.
      }
      try {
        const token = await Office.auth.getAccessToken({ allowSignInPrompt: false, allowConsentPrompt: false, forMSGraphAccess: false });
        user = { name: nameInToken(token) ?? addinTranslator().t('addin.signed_in_fallback') };
        return token;
      } catch {
        return undefined;
      }
    },
    async interactive() {
      try {
        return remember(await pca.acquireTokenPopup({ scopes: settings.scopes }));
      } catch {
        // A host where popups are blocked: Office's SSO with its own sign-in prompt.
        const token = await Office.auth.getAccessToken({ allowSignInPrompt: true, allowConsentPrompt: true });
        user = { name: nameInToken(token) ?? addinTranslator().t('addin.signed_in_fallback') };
        return token;
      }
    },
    user: () => user,
  };
}
