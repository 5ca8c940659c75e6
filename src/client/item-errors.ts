import { BadRequestError, NotFoundError, ServiceError, type ServiceErrorInit } from './errors';

const ITEM_FIELD = /^assets\[(\d+)\](.*)$/;

/**
 * The position inside a batch that a 400's or 404's field names ("assets[3].segment" → 3, an
 * asset id the service did not issue: "assets[3].asset_id" → 3), if below `size`.
 */
export function batchItemIndex(err: unknown, size = Infinity): number | undefined {
  if (!(err instanceof BadRequestError || err instanceof NotFoundError) || !err.field) return undefined;
  const m = ITEM_FIELD.exec(err.field);
  if (!m) return undefined;
  const k = Number(m[1]);
  return k < size ? k : undefined;
}

/**
 * A batch item's 400 re-addressed: `to` a number names the same item at its index in another
 * batch ("assets[2].segment" of a forwarded subset → "assets[7].segment" of the caller's);
 * `to` undefined words it for the item alone ("assets[3].segment …" → "segment …").
 * Anything that does not name a batch item is returned as it is.
 */
export function reindexItemError<E>(err: E, to: number | undefined): E | ServiceError {
  const k = batchItemIndex(err);
  if (k === undefined) return err;
  const e = err as unknown as ServiceError;
  // The same class as the service's answer: a 404 stays a NotFoundError for the item.
  const Same = e.constructor as new (init: ServiceErrorInit) => ServiceError;
  const prefix = `assets[${k}]`;
  const rewrite =
    to === undefined
      ? (text: string) => text.split(`${prefix}.`).join('').split(prefix).join('item')
      : (text: string) => text.split(prefix).join(`assets[${to}]`);
  return new Same({
    status: e.status,
    type: e.type,
    action: e.action,
    message: rewrite(e.message),
    field: rewrite(e.field ?? '') || undefined,
    allowedValues: e.allowedValues,
    operation: e.operation,
    requestId: e.requestId,
    headers: e.headers,
    cause: e,
  });
}
