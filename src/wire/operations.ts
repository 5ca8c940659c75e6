import type { z } from 'zod';
import { RefreshRequest, TokenRequest, TokenResponse, type Scope } from './auth';
import { ValuationRequest } from './assets';
import { BatchValuationRequest, BatchValuationResult, RetrievedValuation, Valuation } from './valuations';
import { BatchScoreRequest, BatchScoreResult, BreakdownRequest, BreakdownResponse, ScoreRequest, ScoreResponse } from './scores';
import { ProjectionRequest, ProjectionResponse } from './projections';
import { AlertList, SegmentSignals, SignalsOverviewResponse } from './signals';
import {
  PerformanceResponse,
  PortfolioAnalyticsResponse,
  PortfolioCreatedResponse,
  PortfolioRequest,
  PortfolioUpdateRequest,
} from './portfolio';
import { ExitChannelList, ExitChannelsQuery, ExitRequest, ExitStrategyResponse } from './exit';
import { SegmentDetailResponse, SegmentList } from './segments-api';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

export interface OperationDef {
  method: HttpMethod;
  /** Relative to the base URL (which ends in /v1); `{name}` marks a path parameter. */
  path: string;
  /** The scope area a token needs; null for operations any valid token may call. */
  scope: Scope | null;
  /** False only for token issuance and refresh. */
  auth: boolean;
  request?: z.ZodType;
  /** Query parameters the operation reads (all optional). */
  query?: z.ZodObject;
  response: z.ZodType;
  /** 201 for created resources (docs/decisions.md), else 200. */
  status: 200 | 201;
  /** Whether repeating the call after an unknown outcome is harmless. */
  idempotent: boolean;
}

const op = <const D extends OperationDef>(d: D) => d;

/** The service's operations: the spec's twenty plus POST /scores/batch. One table for the client, the sandbox and the docs. */
export const OPERATIONS = {
  createToken: op({ method: 'POST', path: '/auth/token', scope: null, auth: false, request: TokenRequest, response: TokenResponse, status: 200, idempotent: true }),
  refreshToken: op({ method: 'POST', path: '/auth/refresh', scope: null, auth: false, request: RefreshRequest, response: TokenResponse, status: 200, idempotent: false }),
  createValuation: op({ method: 'POST', path: '/valuations', scope: 'valuations', auth: true, request: ValuationRequest, response: Valuation, status: 200, idempotent: true }),
  getValuation: op({ method: 'GET', path: '/valuations/{id}', scope: 'valuations', auth: true, response: RetrievedValuation, status: 200, idempotent: true }),
  batchValuations: op({ method: 'POST', path: '/valuations/batch', scope: 'valuations', auth: true, request: BatchValuationRequest, response: BatchValuationResult, status: 200, idempotent: true }),
  createScore: op({ method: 'POST', path: '/scores', scope: 'scores', auth: true, request: ScoreRequest, response: ScoreResponse, status: 200, idempotent: true }),
  scoreBreakdown: op({ method: 'POST', path: '/scores/breakdown', scope: 'scores', auth: true, request: BreakdownRequest, response: BreakdownResponse, status: 200, idempotent: true }),
  batchScores: op({ method: 'POST', path: '/scores/batch', scope: 'scores', auth: true, request: BatchScoreRequest, response: BatchScoreResult, status: 200, idempotent: true }),
  createProjection: op({ method: 'POST', path: '/projections', scope: 'projections', auth: true, request: ProjectionRequest, response: ProjectionResponse, status: 200, idempotent: true }),
  getProjection: op({ method: 'GET', path: '/projections/{id}', scope: 'projections', auth: true, response: ProjectionResponse, status: 200, idempotent: true }),
  signalsOverview: op({ method: 'GET', path: '/signals', scope: 'signals', auth: true, response: SignalsOverviewResponse, status: 200, idempotent: true }),
  listAlerts: op({ method: 'GET', path: '/signals/alerts', scope: 'signals', auth: true, response: AlertList, status: 200, idempotent: true }),
  segmentSignals: op({ method: 'GET', path: '/signals/{segment}', scope: 'signals', auth: true, response: SegmentSignals, status: 200, idempotent: true }),
  createPortfolio: op({ method: 'POST', path: '/portfolio', scope: 'portfolio', auth: true, request: PortfolioRequest, response: PortfolioCreatedResponse, status: 201, idempotent: false }),
  getPortfolio: op({ method: 'GET', path: '/portfolio/{id}', scope: 'portfolio', auth: true, response: PortfolioAnalyticsResponse, status: 200, idempotent: true }),
  updatePortfolio: op({ method: 'PUT', path: '/portfolio/{id}', scope: 'portfolio', auth: true, request: PortfolioUpdateRequest, response: PortfolioAnalyticsResponse, status: 200, idempotent: true }),
  portfolioPerformance: op({ method: 'GET', path: '/portfolio/{id}/performance', scope: 'portfolio', auth: true, response: PerformanceResponse, status: 200, idempotent: true }),
  analyseExit: op({ method: 'POST', path: '/exit', scope: 'exit', auth: true, request: ExitRequest, response: ExitStrategyResponse, status: 200, idempotent: true }),
  exitChannels: op({ method: 'GET', path: '/exit/channels', scope: 'exit', auth: true, query: ExitChannelsQuery, response: ExitChannelList, status: 200, idempotent: true }),
  listSegments: op({ method: 'GET', path: '/segments', scope: null, auth: true, response: SegmentList, status: 200, idempotent: true }),
  getSegment: op({ method: 'GET', path: '/segments/{segment}', scope: null, auth: true, response: SegmentDetailResponse, status: 200, idempotent: true }),
} as const satisfies Record<string, OperationDef>;

export type OperationName = keyof typeof OPERATIONS;
export type RequestOf<N extends OperationName> = (typeof OPERATIONS)[N] extends { request: infer S extends z.ZodType } ? z.input<S> : never;
export type ResponseOf<N extends OperationName> = z.infer<(typeof OPERATIONS)[N]['response']>;

/** Fills `{name}` placeholders, percent-encoding each value. */
export function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === '') throw new Error(`path parameter '${name}' is required`);
    return encodeURIComponent(v);
  });
}

/** Matches a request path against the table; fixed paths win over parameters (/signals/alerts before /signals/{segment}). */
export function matchOperation(method: string, path: string): { name: OperationName; params: Record<string, string> } | { pathKnown: boolean } {
  let pathKnown = false;
  let best: { name: OperationName; params: Record<string, string>; fixed: number } | undefined;
  const segs = path.split('/').filter(Boolean);
  for (const [name, def] of Object.entries(OPERATIONS) as [OperationName, OperationDef][]) {
    const tpl = def.path.split('/').filter(Boolean);
    if (tpl.length !== segs.length) continue;
    const params: Record<string, string> = {};
    let fixed = 0;
    let ok = true;
    for (let i = 0; i < tpl.length; i++) {
      const t = tpl[i]!;
      const s = segs[i]!;
      if (t.startsWith('{')) {
        try {
          params[t.slice(1, -1)] = decodeURIComponent(s);
        } catch {
          ok = false;
          break;
        }
      } else if (t === s) fixed++;
      else {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    pathKnown = true;
    if (def.method !== method) continue;
    if (!best || fixed > best.fixed) best = { name, params, fixed };
  }
  return best ? { name: best.name, params: best.params } : { pathKnown };
}
