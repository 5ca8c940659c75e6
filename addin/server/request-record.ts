import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Log } from '../../src/ops';
import type { AuditLog } from './audit-log';
import type { RequestContext } from './auth/request-context';
import type { HostMetrics } from './host-metrics';
import { errorTypeOf } from './http-util';

export interface RequestRecorders {
  audit?: AuditLog;
  metrics?: HostMetrics;
  log?: Log;
}

/**
 * What the host keeps of each request once its answer is sent: the audit line (gated routes
 * only), the metrics (every route), and a log line for the gated routes naming the user as the
 * audit log does and the service's request ids of the calls it made (a cache hit at debug).
 * Probes of /healthz and /readyz are counted but not logged (a load balancer asks every few
 * seconds).
 */
export function recordRequest(req: IncomingMessage, res: ServerResponse, ctx: RequestContext, r: RequestRecorders): void {
  const started = performance.now();
  r.metrics?.handlingRequest(true);
  res.once('close', () => {
    r.metrics?.handlingRequest(false);
    const status = res.statusCode;
    r.metrics?.requestDone(ctx.route ?? 'other', status);
    if (ctx.operation === undefined) return; // static files and probes: no audit line, no log line
    if (ctx.route === 'api' && ctx.assets !== undefined) r.metrics?.cellsRequested(ctx.assets);
    const durationMs = Math.round(performance.now() - started);
    const source = ctx.upstreamCalls > 0 ? 'upstream' : status < 400 ? 'hit' : 'none';
    const error = status >= 400 ? (errorTypeOf(res) ?? 'error') : undefined;
    r.audit?.write({
      time: new Date().toISOString(),
      user_id: ctx.user?.id ?? null,
      user_name: ctx.user?.name ?? null,
      operation: ctx.operation,
      assets: ctx.assets ?? null,
      ...ctx.historyKey,
      source,
      status,
      duration_ms: durationMs,
      ...(error !== undefined ? { error } : {}),
    });
    // A request answered from the cache is a debug line: the audit log has every request, and a
    // busy host's log stays proportional to what reached the service or failed.
    const level = status >= 500 ? 'warn' : source === 'hit' ? 'debug' : 'info';
    if (!r.log?.enabled(level)) return;
    const ids = ctx.requestIds ?? [];
    r.log[level](`${req.method ?? ''} ${ctx.operation} ${status}`, {
      user: ctx.user?.id,
      user_name: ctx.user?.name ?? undefined,
      operation: ctx.operation,
      assets: ctx.assets,
      source,
      status,
      duration_ms: durationMs,
      error,
      request_id: ids.at(-1),
      request_ids: ids.length > 1 ? ids : undefined,
    });
  });
}
