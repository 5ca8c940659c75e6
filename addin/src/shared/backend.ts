import type {
  Alert,
  BatchValuationItem,
  Breakdown,
  Currency,
  ExitRequest,
  ExitStrategy,
  HistoryQuery,
  HistoryResponse,
  PortfolioPerformanceQuery,
  PortfolioPerformanceResponse,
  Projection,
  ProjectionRequest,
  SegmentDetail,
  SegmentId,
  SegmentSignals,
  Valuation,
  ValuationRequest,
} from '../../../src/wire';
import type { Outcome } from '../dispatcher/outcome';

/**
 * What the add-in asks of the service, in the add-in's terms. The one implementation over
 * the shared ServiceClient is client-backend.ts; keeping this narrow keeps the functions
 * independent of how the client spells its resources.
 */
export interface RuntimeBackend {
  /** At most 50 items: one upstream batch call (the client also splits, waits for its rate limiter and isolates bad items). */
  valueBatch(items: ValuationRequest[], currency: Currency, signal: AbortSignal): Promise<Outcome<BatchValuationItem>[]>;
  /** One asset's full valuation (brand, model, segment, as-of): what an asset card shows. No batch form. */
  valuate(request: ValuationRequest, currency: Currency, signal: AbortSignal): Promise<Valuation>;
  breakdown(assetId: string, signal: AbortSignal): Promise<Breakdown>;
  projection(request: ProjectionRequest, signal: AbortSignal): Promise<Projection>;
  segmentSignals(segment: SegmentId, signal: AbortSignal): Promise<SegmentSignals>;
  segmentDetail(segment: SegmentId, signal: AbortSignal): Promise<SegmentDetail>;
  exit(request: ExitRequest, signal: AbortSignal): Promise<ExitStrategy>;
  alerts(signal?: AbortSignal): Promise<Alert[]>;
  /** A portfolio's or an asset's recorded month-ends, from the firm's history database through the add-in host (not the service). */
  history(query: HistoryQuery, signal: AbortSignal): Promise<HistoryResponse>;
  /** A portfolio's return over a standard period, by the report's engine over the same database, through the add-in host. */
  performance(query: PortfolioPerformanceQuery, signal: AbortSignal): Promise<PortfolioPerformanceResponse>;
}
