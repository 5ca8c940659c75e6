/** The shared API client: Node and browser (no node: imports here or in src/wire). See docs/client.md. */
// First: decides zod's jitless mode before any wire schema is built (see jitless.ts).
import './jitless';
export { ServiceClient, type ValueAllOptions, type Pacing } from './client';
export { createClient } from './create-client';
export type { ClientOptions, ClientLimits } from './options';
export { ConfigurationError } from './options';
export type { Outcome, ItemOutcome } from './outcome';
export { DEFAULT_BULK_CONCURRENCY, type BulkOptions, type BulkProgress, type LandedChunk } from './bulk';
export { batchItemIndex, reindexItemError } from './item-errors';
export { AssetMismatchError, assetMismatch } from './asset-check';
export { RateGate, type AccountGate, type Permit, type RateLimitStatus, type GateLimits } from './rate-gate';
export { AccountLimit, type LimitSource } from './account-limit';
export { minDefined } from './min-defined';
export { describeLimits } from './describe-limits';
export { MAX_RETRY_AFTER_MS, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
export { REQUEST_ID_HEADER } from './errors';
export type { TokenProvider } from './tokens';
export type { ClientLogger } from './logger';
export type { CallEvent, CallObserver } from './observer';
export type { RequestOptions, FetchLike } from './transport';
/** Re-exported: the name is the wire's (src/wire/tiers.ts), shared with the sandbox that sends it. */
export { SANDBOX_HEADER } from '../wire';
export { parseResetHeader, type RateObservation } from './rate-headers';
export { accountKey } from './gate-registry';
export {
  ServiceError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  DailyLimitExhaustedError,
  ServerError,
  ConnectionError,
  TimeoutError,
  AbortedError,
  InvalidResponseError,
} from './errors';
