import type { IncomingMessage } from 'node:http';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../src/shared/host-connection';

/** The origins the add-in's own pages are served from: the deployment's public origin and the address the host listens on. */
export function ownOrigins(listenUrl: string, publicOrigin?: string): Set<string> {
  const own = new URL(listenUrl);
  const origins = new Set<string>([own.origin]);
  if (own.hostname === '127.0.0.1' || own.hostname === 'localhost' || own.hostname === '[::1]') {
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) origins.add(`${own.protocol}//${name}:${own.port}`);
  }
  if (publicOrigin) origins.add(new URL(publicOrigin).origin);
  return origins;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/**
 * Why a request that spends or changes something must be refused as cross-site, or undefined
 * when it comes from the add-in's own page. Each check alone stops a class of attack:
 * - the add-in's custom header: a form, an <img> or a "simple" cross-site fetch cannot carry
 *   it, and a fetch that adds it needs a CORS preflight the host never grants;
 * - application/json on a body: text/plain and form bodies are what cross-site pages send;
 * - Origin and Sec-Fetch-Site, when the browser sends them, name the page's site;
 * - Host: a DNS-rebinding page reaches the host under its own name, which is not ours.
 * Clients that are not browsers (scripts, tests) send no Origin and pass by sending the header.
 */
export function crossSiteRefusal(req: IncomingMessage, origins: Set<string>): { status: 403 | 415; message: string } | undefined {
  const why = reason(req, origins);
  if (why === undefined) return undefined;
  return { status: why === JSON_ONLY ? 415 : 403, message: why };
}

const JSON_ONLY = 'The request body must be application/json.';

function reason(req: IncomingMessage, origins: Set<string>): string | undefined {
  if (header(req, ADDIN_REQUEST_HEADER) !== ADDIN_REQUEST_HEADER_VALUE) {
    return `Requests to this route must come from the add-in's own pages (the ${ADDIN_REQUEST_HEADER} header is missing).`;
  }
  const host = header(req, 'host');
  if (host === undefined || ![...origins].some((o) => new URL(o).host === host.toLowerCase())) {
    return 'The request names a host this add-in host does not serve.';
  }
  const origin = header(req, 'origin');
  if (origin !== undefined && !origins.has(origin)) return 'Cross-site requests are refused: the request comes from another site.';
  const site = header(req, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return 'Cross-site requests are refused: the browser says the request comes from another site.';
  const method = req.method ?? 'GET';
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return JSON_ONLY;
  }
  return undefined;
}
