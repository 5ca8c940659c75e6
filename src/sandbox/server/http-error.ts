import type { z } from 'zod';
import { describeZodError, type ApiErrorBody, type ErrorType } from '../../wire';

export const DOCS_URL = 'https://docs.sandbox.invalid/errors';

const STATUS_OF: Record<ErrorType, number> = {
  validation_error: 400,
  unauthorised: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
};

const DEFAULT_ACTION: Record<ErrorType, NonNullable<ApiErrorBody['action']>> = {
  validation_error: 'check_body',
  unauthorised: 'reauthenticate',
  forbidden: 'check_tier',
  not_found: 'verify_endpoint',
  method_not_allowed: 'verify_endpoint',
  payload_too_large: 'check_body',
  unsupported_media_type: 'check_body',
  rate_limited: 'retry_later',
  internal_error: 'retry_with_backoff',
};

/** An error the server answers with the service's error body; anything else thrown becomes a 500. */
export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly extra: { action?: ApiErrorBody['action']; field?: string; allowed_values?: (string | number)[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = STATUS_OF[type];
  }

  body(): { error: ApiErrorBody } {
    const error: ApiErrorBody = {
      code: this.status,
      type: this.type,
      message: this.message,
      action: this.extra.action ?? DEFAULT_ACTION[this.type],
      documentation: `${DOCS_URL}#${this.type}`,
    };
    if (this.extra.field !== undefined) error.field = this.extra.field;
    if (this.extra.allowed_values !== undefined) error.allowed_values = this.extra.allowed_values;
    return { error };
  }
}

export function rateLimitedError(retryAfterSeconds: number, what: string): HttpError {
  return new HttpError('rate_limited', `${what}; retry after ${retryAfterSeconds} s`, { headers: { 'retry-after': String(retryAfterSeconds) } });
}

export function validationError(field: string, message: string, allowed_values?: (string | number)[]): HttpError {
  return new HttpError('validation_error', message, { field, allowed_values });
}

/** A failed schema parse of `input` against `schema` as a 400 naming the first offending field (e.g. assets[3].segment) and, for a number, its range. */
export function fromZodError(error: z.ZodError, input: unknown, schema?: z.ZodType): HttpError {
  const p = describeZodError(error, input, schema);
  return validationError(p.field, p.message, p.allowed_values);
}
