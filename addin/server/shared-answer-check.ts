import { z } from 'zod';
import { BatchValuationItem, OPERATIONS } from '../../src/wire';
import type { ProxiedOperation } from './operations';
import { reportProblem } from './auth/request-context';

/** A batch item as replicas share it (api-cache.ts's CachedItem). */
const SharedItem = z.object({ item: BatchValuationItem, validated: z.boolean() });

/** The asset id a request asked for, when it asked by id. */
function askedId(body: unknown): string | undefined {
  const id = typeof body === 'object' && body !== null ? (body as { asset_id?: unknown }).asset_id : undefined;
  return typeof id === 'string' ? id : undefined;
}

function refused(what: string): false {
  reportProblem(`[addin-host] an answer read from Redis was not used (${what}): the service is asked instead.`);
  return false;
}

/**
 * Another replica's answer as read from Redis is input like any other (docs/security.md, "Redis"):
 * used only when it has the operation's response shape (the wire schema the client checks the
 * service's answers with) and, for a request by asset id, names that asset. Otherwise it is a miss.
 */
export function isUsableSharedAnswer(name: ProxiedOperation, body: unknown, value: unknown): boolean {
  if (!OPERATIONS[name].response.safeParse(value).success) return refused(`not a ${name} answer`);
  const id = askedId(body);
  if (id !== undefined && (value as { asset_id?: unknown }).asset_id !== id) return refused('it is for another asset');
  return true;
}

/** The same for one batch item, shared per asset. */
export function isUsableSharedItem(asset: unknown, value: unknown): value is z.infer<typeof SharedItem> {
  if (value === undefined) return false;
  if (!SharedItem.safeParse(value).success) return refused('not a batch valuation item');
  const id = askedId(asset);
  if (id !== undefined && (value as z.infer<typeof SharedItem>).item.asset_id !== id) return refused('it is for another asset');
  return true;
}
