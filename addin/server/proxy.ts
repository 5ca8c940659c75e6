import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidResponseError, ServiceError, type ServiceClient, type RateLimitStatus } from '../../src/client';
import { matchOperation, OPERATIONS, RATE_HEADERS } from '../../src/wire';
import { checkInput } from '../../src/client/validate';
import type { HostApiCache } from './api-cache';
import { HttpProblem, readJson, sendError, sendJson } from './http-util';
import { hostText } from './host-text';
import { isProxied, PROXIED_OPERATIONS } from './operations';
import { noteOperation, reportProblem } from './auth/request-context';

export interface ProxyContext {
  client: ServiceClient;
  cache: HostApiCache;
}

/**
 * The day's budget as the host sees the account, for the browser's client: with it, cells fail
 * at once with "the day's budget is spent" instead of each asking. The per-minute headers are
 * not passed on: the host paces the upstream calls (with each user's fair share), and a browser
 * pacing itself a second time by them stalled at every window edge behind the host's own pace.
 */
export function rateHeaders(status: RateLimitStatus): Record<string, string> {
  const h: Record<string, string> = {};
  const put = (name: string, v: number | string | undefined) => {
    if (v !== undefined) h[name] = String(v);
  };
  put(RATE_HEADERS.dayLimit, status.dayLimit);
  put(RATE_HEADERS.dayRemaining, status.dayRemaining);
  put(RATE_HEADERS.dayReset, status.dayResetsAt ? String(Math.ceil(status.dayResetsAt.getTime() / 1000)) : undefined);
  return h;
}

/**
 * Forwards one browser request (path relative to /v1) to the configured service through the
 * host's client. Only the contract's operations pass, token issuance and refresh excepted;
 * nothing of the incoming request is forwarded but the operation's path parameters, query
 * and JSON body (no Authorization, no cookies, no other headers), and the answer is the
 * validated response, never a token.
 */
export async function handleApi(req: IncomingMessage, res: ServerResponse, apiPath: string, query: URLSearchParams, ctx: ProxyContext): Promise<void> {
  const method = req.method ?? 'GET';
  const match = matchOperation(method, apiPath);
  if (!('name' in match) || !isProxied(match.name)) {
    const known = 'name' in match || match.pathKnown;
    if (known && !('name' in match)) {
      sendError(res, 405, 'method_not_allowed', `${method} is not allowed on ${apiPath}.`, { action: 'verify_endpoint' });
    } else {
      sendError(res, 404, 'not_found', `The add-in host forwards only the valuation service's API operations; ${apiPath} is not one.`, { action: 'verify_endpoint' });
    }
    return;
  }
  const name = match.name;
  try {
    const op = OPERATIONS[name];
    noteOperation(name);
    const body = op.method === 'GET' ? undefined : await readJson(req);
    noteOperation(name, body);
    // Checked against the wire schema here, before the cache keys it or anything else reads it.
    if ('request' in op && op.request) {
      const checked = checkInput(op.request, body, name);
      if (!checked.ok) throw checked.error;
    }
    const call = { params: match.params, query, body };
    const result = await ctx.cache.call(name, call, (c) => PROXIED_OPERATIONS[name](ctx.client, c, {}));
    sendJson(res, OPERATIONS[name].status, result, rateHeaders(ctx.client.rateLimitStatus()));
  } catch (err) {
    sendServiceError(res, err, rateHeaders(ctx.client.rateLimitStatus()));
  }
}

/** A failure as the service's error body; a service that cannot be reached is a 503. */
export function sendServiceError(res: ServerResponse, err: unknown, headers: Record<string, string> = {}): void {
  if (err instanceof HttpProblem) {
    sendError(res, err.status, err.type, err.text, { field: err.field }, headers);
    return;
  }
  if (err instanceof ServiceError) {
    const extra = { action: err.action, field: err.field, allowed_values: err.allowedValues };
    if (err.status >= 400 && err.status < 600) {
      const retry: Record<string, string> = {};
      const resetAt = (err as { resetAt?: Date }).resetAt;
      if (err.status === 429 && resetAt) retry['retry-after'] = String(Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000)));
      // A 401 here means the host's own credentials were refused, and a 500 is the service's own
      // failure: either way the gateway answers 502, and a 500 from this host always means its own bug.
      const status = err.status === 401 || err.status === 500 ? 502 : err.status;
      sendError(res, status, err.type, err.status === 401 ? hostText('addin.host_service_sign_in') : err.message, extra, { ...headers, ...retry });
      return;
    }
    if (err instanceof InvalidResponseError) {
      // The service answered, but not as the contract says: a bad gateway, not an unreachable one.
      sendError(res, 502, 'invalid_upstream_response', err.message, { action: 'retry_later' }, headers);
      return;
    }
    sendError(res, 503, 'service_unavailable', hostText('addin.host_service_unreachable', { reason: err.message }), { action: 'retry_later' }, headers);
    return;
  }
  // An unexpected failure of the host itself: the operator sees it, the browser gets a sentence.
  reportProblem(`[addin-host] unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  sendError(res, 500, 'internal_error', hostText('addin.host_internal_error'), { action: 'retry_with_backoff' }, headers);
}
