import type { SignInSettings } from '../src/shared/sign-in';

/** What addin:build needs to let the add-in sign users in with Entra ID (docs/addin.md, "Registering the add-in in Entra ID"). */
export interface BuildSignIn {
  /** The app registration's Application (client) ID: a GUID. */
  clientId: string;
  /** The tenant id or domain: MSAL's authority is https://login.microsoftonline.com/<tenant>. */
  tenant: string;
  /** The Application ID URI; default api://<origin host>/<client id>, the form Office requires. */
  resource?: string;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The settings checked, with the resource filled in; a clear error names the setting otherwise. */
export function resolveSignIn(signIn: BuildSignIn, origin: string): Required<BuildSignIn> {
  if (!GUID.test(signIn.clientId)) throw new Error(`ADDIN_AUTH_CLIENT_ID must be the app registration's Application (client) ID, a GUID (got "${signIn.clientId}").`);
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,253}$/.test(signIn.tenant) || ['common', 'organizations', 'consumers'].includes(signIn.tenant.toLowerCase())) {
    throw new Error(`ADDIN_AUTH_TENANT must be your tenant id or domain, e.g. contoso.onmicrosoft.com (got "${signIn.tenant}").`);
  }
  const resource = signIn.resource ?? `api://${new URL(origin).host}/${signIn.clientId}`;
  if (!/^api:\/\/[^\s<>&"]+$/.test(resource)) throw new Error(`ADDIN_AUTH_RESOURCE must be the Application ID URI, api://… (got "${resource}").`);
  return { clientId: signIn.clientId, tenant: signIn.tenant, resource };
}

/**
 * dist/auth-config.json: what the pages' MSAL client is configured with (sign-in.ts reads it), or
 * `{ "sign_in": false }` without sign-in settings (written all the same, so the page's request
 * for it is never a 404). No secret: the add-in is a public client.
 */
export function msalConfig(signIn: Required<BuildSignIn> | undefined): SignInSettings | { sign_in: false } {
  if (!signIn) return { sign_in: false };
  return { clientId: signIn.clientId, authority: `https://login.microsoftonline.com/${signIn.tenant}`, scopes: [`${signIn.resource}/access_as_user`] };
}

/** The manifest with <WebApplicationInfo> as the last child of VersionOverrides, where the schema puts it. */
export function withWebApplicationInfo(manifest: string, signIn: Required<BuildSignIn>): string {
  const close = '  </VersionOverrides>\n</OfficeApp>';
  if (!manifest.includes(close)) throw new Error('manifest.xml no longer ends with </VersionOverrides></OfficeApp> as expected');
  const info = [
    '    <WebApplicationInfo>',
    `      <Id>${escapeXml(signIn.clientId)}</Id>`,
    `      <Resource>${escapeXml(signIn.resource)}</Resource>`,
    '      <Scopes>',
    '        <Scope>openid</Scope>',
    '        <Scope>profile</Scope>',
    '      </Scopes>',
    '    </WebApplicationInfo>',
  ].join('\n');
  return manifest.replace(close, `${info}\n${close}`);
}
