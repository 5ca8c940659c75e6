import type { z } from 'zod';
import { describeNumberRange, numberRangeAt } from './number-range';

export interface FieldProblem {
  /** "assets[3].segment", "horizons[0]", "" for the body as a whole. */
  field: string;
  message: string;
  allowed_values?: (string | number)[];
}

/** "assets.3.segment" as the service names it: assets[3].segment. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out;
}

/** Issues about a number's value or type, where the field's range says what is allowed. */
function isNumberProblem(issue: z.core.$ZodIssue, present: boolean): boolean {
  if (issue.code === 'too_big' || issue.code === 'too_small') return issue.origin === 'int' || issue.origin === 'number';
  if (issue.code === 'invalid_type') return present && (issue.expected === 'number' || issue.expected === 'int');
  return issue.code === 'not_multiple_of';
}

/**
 * The first problem of a failed parse, worded for a person and naming the field. Pass the
 * parsed input so a present value of the wrong type reads "must be a number" rather than
 * "is required" (zod leaves the input out of its issues unless asked). Pass the schema so a
 * number sent as text, or past zod's own safe-integer limit (1e308), is answered with the
 * field's allowed range rather than zod's words.
 */
export function describeZodError(error: z.ZodError, input?: unknown, schema?: z.ZodType): FieldProblem {
  const issue = error.issues[0];
  if (!issue) return { field: '', message: 'invalid request' };
  const field = fieldPath(issue.path);
  const label = field || 'body';
  const range = schema && isNumberProblem(issue, issue.code !== 'invalid_type' || isPresent(issue, input)) ? numberRangeAt(schema, issue.path) : undefined;
  // Bounds zod states plainly ("at least 1") keep their wording; the rest name the whole range.
  const plainBound = (issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'number';
  if (range && !plainBound) return { field, message: `${label} must be ${describeNumberRange(range)}` };
  if (issue.code === 'too_big' && issue.origin === 'int') {
    // Past the safe-integer limit zod checks before the field's own bound: that bound, if zod reported it too.
    const own = error.issues.find((i) => i !== issue && i.code === 'too_big' && i.origin === 'number' && fieldPath(i.path) === field);
    return { field, message: `${label} must be at most ${own && own.code === 'too_big' ? own.maximum : Number.MAX_SAFE_INTEGER}` };
  }
  if (issue.code === 'too_small' && issue.origin === 'int') return { field, message: `${label} must be at least ${Number.MIN_SAFE_INTEGER}` };
  if (issue.code === 'invalid_value') {
    const values = issue.values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
    return { field, message: `${label} must be one of ${values.join(', ')}`, allowed_values: values };
  }
  if (issue.code === 'invalid_type') {
    return { field, message: isPresent(issue, input) ? `${label} must be ${article(issue.expected)}` : `${label} is required` };
  }
  if (issue.code === 'custom' && typeof issue.params?.kind === 'string') return { field, message: `${label} ${issue.message}` };
  if (issue.code === 'too_small' && issue.origin === 'number' && issue.inclusive === false) return { field, message: `${label} must be greater than ${issue.minimum}` };
  if (issue.code === 'too_big' && issue.origin === 'number' && issue.inclusive === false) return { field, message: `${label} must be less than ${issue.maximum}` };
  if (issue.code === 'unrecognized_keys') return { field, message: `${label} has unknown fields: ${issue.keys.join(', ')}` };
  if (issue.code === 'too_big' && issue.origin === 'array') return { field, message: `${label} holds at most ${issue.maximum} items` };
  if (issue.code === 'too_small' && issue.origin === 'array') return { field, message: `${label} needs at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}` };
  if (issue.code === 'too_small' && issue.origin === 'number') return { field, message: `${label} must be at least ${issue.minimum}` };
  if (issue.code === 'too_big' && issue.origin === 'number') return { field, message: `${label} must be at most ${issue.maximum}` };
  if (issue.code === 'too_small' && issue.origin === 'string') return { field, message: `${label} must not be empty` };
  if (issue.code === 'too_big' && issue.origin === 'string') return { field, message: `${label} is longer than ${issue.maximum} characters` };
  const msg = issue.message.startsWith(label) ? issue.message : `${label}: ${issue.message}`;
  return { field, message: msg };
}

/** Whether the value an invalid_type issue points at was sent at all (null counts as sent). */
function isPresent(issue: z.core.$ZodIssueInvalidType, input: unknown): boolean {
  if ('input' in issue && issue.input !== undefined) return true;
  if (input === undefined) return /received (?!undefined)/.test(issue.message);
  let v: unknown = input;
  for (const key of issue.path) {
    if (v === null || typeof v !== 'object') return false;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v !== undefined;
}

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  if (expected === 'number') return 'a number';
  if (expected === 'string') return 'a string';
  if (expected === 'boolean') return 'true or false';
  if (expected === 'array') return 'an array';
  if (expected === 'object') return 'an object';
  return expected;
}
