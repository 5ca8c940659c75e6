import { REQUEST_ID_HEADER, type ApiErrorBody } from '../wire';

export { REQUEST_ID_HEADER };

export interface ServiceErrorInit {
  status: number;
  type: string;
  message: string;
  action?: string;
  field?: string;
  allowedValues?: (string | number)[];
  /** The client method's operation name (OPERATIONS key), when the error belongs to one call. */
  operation?: string;
  /** The response's headers, when an HTTP answer came. */
  headers?: Headers;
  /** The service's id for the request (x-request-id), when it sent one. */
  requestId?: string;
  /** What caused this error (the fetch error of a network failure, the item's error before it was re-worded). */
  cause?: unknown;
}

/**
 * Every failure the client reports. `status` is the HTTP status, or 0 when no answer came
 * (connection, timeout, abort, a check made before sending). Messages are sentences a person
 * can act on; they never carry credentials or tokens.
 */
export class ServiceError extends Error {
  readonly status: number;
  /** The service's error type (`validation_error`, `rate_limited`, …), or the client's for failures without an answer. */
  readonly type: string;
  /** The response headers (empty when no HTTP answer came). */
  readonly headers: Headers;
  /** The service's `x-request-id` for the failed request: quote it to the service's support. */
  readonly requestId: string | undefined;
  readonly action: string | undefined;
  readonly field: string | undefined;
  readonly allowedValues: (string | number)[] | undefined;
  readonly operation: string | undefined;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.type = init.type;
    this.headers = init.headers ?? new Headers();
    this.requestId = init.requestId ?? requestIdOf(init.headers);
    this.action = init.action;
    this.field = init.field;
    this.allowedValues = init.allowedValues;
    this.operation = init.operation;
  }

  /** The error's type under openai-node's name for it. */
  get code(): string {
    return this.type;
  }

  /** A plain object for logs and JSON (no stack). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      status: this.status,
      type: this.type,
      message: this.message,
      action: this.action,
      field: this.field,
      allowedValues: this.allowedValues,
      operation: this.operation,
      requestId: this.requestId,
    };
  }
}

export class BadRequestError extends ServiceError {}
export class AuthenticationError extends ServiceError {}
export class PermissionDeniedError extends ServiceError {}
export class NotFoundError extends ServiceError {}
/** 413: the request body is over the service's limit (1 MiB); sending it again cannot help. */
export class PayloadTooLargeError extends ServiceError {}
export class ServerError extends ServiceError {}
/** No HTTP answer: refused connection, reset, DNS, CORS refusal in a browser. */
export class ConnectionError extends ServiceError {
  /** True when the request surely never reached the service (e.g. connection refused), so even a non-idempotent call may be repeated. */
  readonly notSent: boolean;
  constructor(init: ServiceErrorInit & { notSent?: boolean }) {
    super(init);
    this.notSent = init.notSent ?? false;
  }
}
export class TimeoutError extends ServiceError {}
/** The caller's AbortSignal fired. */
export class AbortedError extends ServiceError {}
/** The service answered 2xx with a body that does not match the wire contract. */
export class InvalidResponseError extends ServiceError {}

/** 429: the per-minute budget is spent; `resetAt` is when the service said it returns. */
export class RateLimitError extends ServiceError {
  readonly resetAt: Date | undefined;
  constructor(init: ServiceErrorInit & { resetAt?: Date }) {
    super(init);
    this.resetAt = init.resetAt;
  }
}

/** The day's budget is spent: raised before sending, instead of sleeping for hours. */
export class DailyLimitExhaustedError extends ServiceError {
  readonly resetAt: Date;
  constructor(init: Omit<ServiceErrorInit, 'status' | 'type' | 'message'> & { resetAt: Date; limit?: number }) {
    super({
      ...init,
      status: 429,
      type: 'daily_limit_exhausted',
      action: 'retry_later',
      message:
        `The daily request budget${init.limit !== undefined ? ` of ${init.limit}` : ''} for this account is spent; ` +
        `it returns at ${init.resetAt.toISOString()}.`,
    });
    this.resetAt = init.resetAt;
  }
}

/** x-request-id, or request-id (the other spelling gateways use). */
export function requestIdOf(headers: Headers | undefined): string | undefined {
  return headers?.get(REQUEST_ID_HEADER) ?? headers?.get('request-id') ?? undefined;
}

/** The typed error for an HTTP error answer; the body is the service's `error` object when it sent one. */
export function errorFromResponse(
  status: number,
  body: ApiErrorBody | undefined,
  operation: string | undefined,
  extra: { resetAt?: Date; headers?: Headers } = {},
): ServiceError {
  const init: ServiceErrorInit = {
    headers: extra.headers,
    status,
    type: body?.type ?? defaultType(status),
    message: body?.message ?? `The service answered HTTP ${status}.`,
    action: body?.action,
    field: body?.field || undefined,
    allowedValues: body?.allowed_values,
    operation,
  };
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 413) return new PayloadTooLargeError(init);
  if (status === 429) return new RateLimitError({ ...init, resetAt: extra.resetAt });
  if (status >= 500) return new ServerError(init);
  return new ServiceError(init);
}

function defaultType(status: number): string {
  if (status === 400) return 'validation_error';
  if (status === 401) return 'unauthorised';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'internal_error';
  return 'http_error';
}
