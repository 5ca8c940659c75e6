import { z } from 'zod';
import { openEnum } from './primitives';

/** Error kinds. The spec shows unauthorised and validation_error; the rest are ours (docs/decisions.md). */
export const ERROR_TYPES = [
  'validation_error',
  'unauthorised',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ERROR_ACTIONS = ['refresh_token', 'reauthenticate', 'check_body', 'check_tier', 'retry_later', 'retry_with_backoff', 'verify_endpoint'] as const;

export const ApiErrorBody = z.object({
  code: z.number().int(),
  type: openEnum(ERROR_TYPES),
  message: z.string(),
  action: openEnum(ERROR_ACTIONS).optional(),
  documentation: z.string().optional(),
  field: z.string().optional(),
  allowed_values: z.array(z.union([z.string(), z.number()])).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export const ErrorResponse = z.object({ error: ApiErrorBody });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
