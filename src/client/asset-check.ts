import { parseAssetId } from '../wire';
import { InvalidResponseError } from './errors';

/**
 * The service answered for another asset than the request named: the worst a client can
 * show is another asset's figure as this one's, so the answer is refused (issue 10).
 * `requested` is the asset id asked for, or for a request by description its segment.
 */
export class AssetMismatchError extends InvalidResponseError {
  readonly requested: string;
  readonly answered: string;
  constructor(init: { requested: string; answered: string; operation: string; byDescription: boolean }) {
    super({
      status: 0,
      type: 'asset_mismatch',
      action: 'retry_later',
      message: init.byDescription
        ? `The service answered for another asset: asked for a ${init.requested} asset, got ${init.answered}.`
        : `The service answered for another asset: asked ${init.requested}, got ${init.answered}.`,
      operation: init.operation,
    });
    this.requested = init.requested;
    this.answered = init.answered;
  }
}

/** Ids compare as the service treats them: surrounding space and case do not matter (docs/decisions.md). */
function sameId(a: string, b: string): boolean {
  return a.trim().toUpperCase() === b.trim().toUpperCase();
}

/**
 * Whether `answeredId` can be the answer to `request`. A request naming an `asset_id` must get
 * that id back. A request by description names no id, so as far as the wire allows: when the
 * answered id has the service's form (SVC-{CODE}-…), its segment code must be the requested
 * segment's. Returns the error for a mismatch, undefined when the answer fits.
 */
export function assetMismatch(request: unknown, answeredId: string, operation: string): AssetMismatchError | undefined {
  if (request === null || typeof request !== 'object') return undefined;
  const { asset_id: assetId, segment } = request as { asset_id?: unknown; segment?: unknown };
  if (typeof assetId === 'string') {
    return sameId(assetId, answeredId) ? undefined : new AssetMismatchError({ requested: assetId.trim(), answered: answeredId, operation, byDescription: false });
  }
  if (typeof segment === 'string') {
    const parsed = parseAssetId(answeredId);
    if (parsed && parsed.segment !== segment) return new AssetMismatchError({ requested: segment, answered: answeredId, operation, byDescription: true });
  }
  return undefined;
}

/** Throws the mismatch, else hands the response back: for the single-asset methods. */
export function expectAsset<R>(response: R, request: unknown, answeredId: string, operation: string): R {
  const err = assetMismatch(request, answeredId, operation);
  if (err) throw err;
  return response;
}
