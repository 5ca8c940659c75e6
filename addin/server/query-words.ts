import type { ServerResponse } from 'node:http';
import type { z } from 'zod';
import { sendError } from './http-util';
import { hostText, type HostText } from './host-text';

/**
 * The host's 400 for a history or performance query its wire schema refused (src/wire/history.ts,
 * performance.ts), said in the request's language: the sentence is chosen by the kind of issue,
 * not taken from zod's English. The functions check their arguments first (in Excel's language,
 * addin/src/shared/arguments.ts), so a cell rarely shows these; a script calling the host does.
 */
export function sendInvalidQuery(res: ServerResponse, error: z.ZodError, defaultField: string, params: URLSearchParams, allowedByField: Record<string, readonly string[]> = {}): void {
  const issue = error.issues[0]!;
  const field = String(issue.path[0] ?? defaultField);
  const allowed = allowedByField[field];
  sendError(res, 400, 'validation_error', queryIssueText(issue, field, params.get(field), allowed), { field, ...(allowed ? { allowed_values: [...allowed] } : {}) });
}

function queryIssueText(issue: z.core.$ZodIssue, field: string, got: string | null, allowed: readonly string[] | undefined): HostText {
  if (allowed) return got === null ? hostText('addin.host_query_choice', { field, allowed: allowed.join(', ') }) : hostText('addin.arg_one_of', { name: field, allowed: allowed.join(', '), got });
  if (issue.code === 'too_big') return hostText('addin.host_query_too_long', { field, max: Number(issue.maximum) });
  if (issue.code === 'too_small') return hostText('addin.host_query_name', { field, kind: field === 'key' ? 'key' : 'portfolio' });
  if (issue.code === 'invalid_format') return hostText('addin.host_query_date', { field });
  if (issue.code === 'custom') return hostText('addin.host_query_real_date', { field });
  return hostText('addin.host_query_invalid', { field });
}
