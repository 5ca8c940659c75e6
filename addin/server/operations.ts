import type { ServiceClient, RequestOptions } from '../../src/client';
import type { OperationName } from '../../src/wire';

/** What the browser may ask: every API operation except token issuance and refresh (tokens never leave the host). */
export type ProxiedOperation = Exclude<OperationName, 'createToken' | 'refreshToken'>;

export interface ProxiedCall {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

type Invoke = (client: ServiceClient, call: ProxiedCall, opts: RequestOptions) => Promise<unknown>;

/* The request bodies are checked by the client against the wire schemas before sending. */
const body = <T>(call: ProxiedCall) => call.body as T;

/**
 * Each API operation the host forwards, as a call on the host's one ServiceClient (which adds
 * the token, shares the rate limiter and retries). Keyed by the OPERATIONS table's names, so a
 * path not in the service's contract has no entry and is refused.
 */
export const PROXIED_OPERATIONS: Record<ProxiedOperation, Invoke> = {
  createValuation: (c, x, o) => c.valuations.create(body(x), o),
  getValuation: (c, x, o) => c.valuations.get(x.params.id!, o),
  batchValuations: (c, x, o) => c.valuations.batch(body(x), o),
  createScore: (c, x, o) => c.scores.create(body(x), o),
  scoreBreakdown: (c, x, o) => c.scores.breakdown(body(x), o),
  batchScores: (c, x, o) => c.scores.batch(body(x), o),
  createProjection: (c, x, o) => c.projections.create(body(x), o),
  getProjection: (c, x, o) => c.projections.get(x.params.id!, o),
  signalsOverview: (c, _x, o) => c.signals.overview(o),
  listAlerts: (c, _x, o) => c.signals.alerts(o),
  segmentSignals: (c, x, o) => c.signals.segment(x.params.segment!, o),
  createPortfolio: (c, x, o) => c.portfolio.create(body(x), o),
  getPortfolio: (c, x, o) => c.portfolio.get(x.params.id!, o),
  updatePortfolio: (c, x, o) => c.portfolio.update(x.params.id!, body(x), o),
  portfolioPerformance: (c, x, o) => c.portfolio.performance(x.params.id!, o),
  analyseExit: (c, x, o) => c.exit.analyse(body(x), o),
  exitChannels: (c, x, o) => c.exit.channels({ segment: x.query.get('segment') ?? undefined }, o),
  listSegments: (c, _x, o) => c.segments.list(o),
  getSegment: (c, x, o) => c.segments.get(x.params.segment!, o),
};

export function isProxied(name: OperationName): name is ProxiedOperation {
  return Object.hasOwn(PROXIED_OPERATIONS, name);
}
