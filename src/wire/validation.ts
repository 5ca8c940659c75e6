import type { z } from 'zod';

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

/**
 * The first problem of a failed parse, worded for a person and naming the field. Pass the
 * parsed input so a present value of the wrong type reads "must be a number" rather than
 * "is required" (zod leaves the input out of its issues unless asked).
 */
export function describeZodError(error: z.ZodError, input?: unknown): FieldProblem {
  const issue = error.issues[0];
  if (!issue) return { field: '', message: 'invalid request' };
  const field = fieldPath(issue.path);
  const label = field || 'body';
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
