import type { z } from 'zod';
import { SEGMENT_IDS, describeZodError, parseSegment, type FieldProblem, type SegmentId } from '../wire';
import { BadRequestError, InvalidResponseError } from './errors';
import { parseOptions } from './jitless';

/**
 * The first problem of a failed parse, with the offending value quoted when the field is an
 * enumeration: "segment 'yachts' is not one of watches, art, …" reads better than the bare list.
 */
export function describeProblem(error: z.ZodError, input: unknown): FieldProblem {
  const problem = describeZodError(error);
  const issue = error.issues[0];
  if (problem.allowed_values && issue) {
    const value = valueAt(input, issue.path);
    if (typeof value === 'string' || typeof value === 'number') {
      const label = problem.field || 'value';
      return { ...problem, message: `${label} '${String(value)}' is not one of ${problem.allowed_values.join(', ')}` };
    }
  }
  return problem;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Checks one input against its schema: the parsed value, or a BadRequestError naming the field. */
export function checkInput<S extends z.ZodType>(schema: S, input: unknown, operation: string): { ok: true; value: z.output<S> } | { ok: false; error: BadRequestError } {
  const result = schema.safeParse(input, parseOptions());
  if (result.success) return { ok: true, value: result.data };
  const p = describeProblem(result.error, input);
  // 400 like the service's own answer, so callers handle both alike; nothing was sent.
  return {
    ok: false,
    error: new BadRequestError({
      status: 400,
      type: 'validation_error',
      action: 'check_body',
      message: p.message,
      field: p.field,
      allowedValues: p.allowed_values,
      operation,
    }),
  };
}

/** Checks a request body before anything is sent; throws a BadRequestError naming the field. */
export function checkRequest<S extends z.ZodType>(schema: S, input: unknown, operation: string): z.output<S> {
  const r = checkInput(schema, input, operation);
  if (!r.ok) throw r.error;
  return r.value;
}

/** Checks a 2xx body against the wire contract; a mismatch names the operation and the field path. */
export function checkResponse<S extends z.ZodType>(schema: S, body: unknown, operation: string, headers?: Headers): z.output<S> {
  const result = schema.safeParse(body, parseOptions());
  if (result.success) return result.data;
  const p = describeZodError(result.error);
  throw new InvalidResponseError({
    status: 0,
    type: 'invalid_response',
    message: `The service's answer to ${operation} does not match the contract at ${p.field || 'the body'}: ${p.message}.`,
    field: p.field,
    operation,
    headers,
    cause: result.error,
  });
}

/** A segment in a path or query: exact ids, or what a person typed ("Watches", "WAT"). */
export function checkSegment(input: string, operation: string): SegmentId {
  const id = typeof input === 'string' ? parseSegment(input) : undefined;
  if (id) return id;
  throw new BadRequestError({
    status: 400,
    type: 'validation_error',
    action: 'check_body',
    message: `segment '${String(input)}' is not one of ${SEGMENT_IDS.join(', ')}`,
    field: 'segment',
    allowedValues: [...SEGMENT_IDS],
    operation,
  });
}

/** A resource id in a path: a non-empty string. */
export function checkId(input: string, operation: string, field = 'id'): string {
  if (typeof input === 'string' && input.trim() !== '') return input.trim();
  throw new BadRequestError({ status: 400, type: 'validation_error', action: 'check_body', message: `${field} is required`, field, operation });
}
