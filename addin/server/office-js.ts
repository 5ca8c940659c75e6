import path from 'node:path';
import { ADDIN_DIR } from '../paths';
import { OFFICE_JS_CDN, OFFICE_JS_LOCAL_PREFIX } from '../contract/office-js-cdn';

export { OFFICE_JS_CDN, OFFICE_JS_LOCAL_PREFIX };
export const OFFICE_JS_DIR = path.resolve(ADDIN_DIR, '..', 'node_modules/@microsoft/office-js/dist');

/**
 * `cdn` (the default): the pages load office.js from Microsoft's CDN, as Microsoft supports it.
 * `local` (ADDIN_OFFICE_JS=local): the host serves the npm copy, for firms whose users cannot
 * reach the CDN and for tests, which have no network.
 */
export type OfficeJsSource = 'cdn' | 'local';
export const OFFICE_JS_SOURCES: readonly OfficeJsSource[] = ['cdn', 'local'];

/** The built pages reference the CDN; with `local` the host rewrites that one reference as it serves them. */
export function pageForOfficeJs(html: string, source: OfficeJsSource): string {
  return source === 'local' ? html.split(`src="${OFFICE_JS_CDN}"`).join(`src="${OFFICE_JS_LOCAL_PREFIX}office.js"`) : html;
}

/**
 * The hosts that frame the add-in's pages: Excel on the web (Office Online, the cloud.microsoft
 * domains and SharePoint-hosted workbooks). Desktop Excel shows the page top-level.
 */
const OFFICE_FRAME_ANCESTORS = ['https://*.officeapps.live.com', 'https://*.office.com', 'https://*.office365.com', 'https://*.microsoft365.com', 'https://*.cloud.microsoft', 'https://*.sharepoint.com'];

/**
 * Headers on every answer of the host. The content-security policy allows scripts from the
 * host itself and, when office.js comes from the CDN, from exactly Microsoft's origin; nothing
 * inline anywhere; requests only to the host; framing only by Office. HSTS only over TLS.
 */
export function securityHeaders(options: { officeJs: OfficeJsSource; tls: boolean }): Record<string, string> {
  const scripts = ["'self'", ...(options.officeJs === 'cdn' ? [new URL(OFFICE_JS_CDN).origin] : [])];
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    // The service worker (sw.js, same origin) that keeps this version's pages for offline opens.
    "worker-src 'self'",
    "frame-src 'self'",
    `frame-ancestors 'self' ${OFFICE_FRAME_ANCESTORS.join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    ...(options.tls ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

/**
 * The policy of the service worker's own context (sw.js): it fetches only the host and, when
 * office.js comes from the CDN, Microsoft's origin (to keep office.js for offline opens).
 */
export function serviceWorkerCsp(options: { officeJs: OfficeJsSource }): string {
  const connect = ["'self'", ...(options.officeJs === 'cdn' ? [new URL(OFFICE_JS_CDN).origin] : [])];
  return ["default-src 'none'", `connect-src ${connect.join(' ')}`].join('; ');
}
