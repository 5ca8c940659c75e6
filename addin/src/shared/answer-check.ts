import { z } from 'zod';
import { assetMismatch } from '../../../src/client/asset-check';
import { BatchValuationItem, Breakdown, ExitStrategy, Projection, Valuation, type ValuationRequest } from '../../../src/wire';
import type { AnswerCheck } from '../dispatcher/coalescing-queue';

/**
 * The checks a kept answer passes when read back from the machine, the same the shared client
 * puts a network answer through: the wire schema (zod, src/wire) and the asset it answers
 * (asset-check.ts). Storage on the machine can be edited by anything running as the user, so a
 * kept answer is no more trusted than one arriving from the network (docs/security.md).
 */
function assetAnswer<Req, Res>(schema: z.ZodType<Res>, operation: string, requestOf: (request: Req) => unknown, assetOf: (value: Res) => string): AnswerCheck<Req, Res> {
  return {
    parse: (value) => {
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    },
    fits: (request, value) => assetMismatch(requestOf(request), assetOf(value), operation) === undefined,
  };
}

/** An asset card's kept answer: the valuation and the service it came from. */
const CardAnswerSchema = z.object({ valuation: Valuation, source: z.object({ service: z.string(), sandbox: z.boolean() }) });

/** Requests that name their asset (or, for a valuation by description, its segment) as the service's request does. */
const asIs = (request: ValuationRequest | { asset_id: string }): unknown => request;

export const checkValuation = assetAnswer(BatchValuationItem, 'valuation', asIs, (v) => v.asset_id);
export const checkCard = assetAnswer(CardAnswerSchema, 'valuation', (k: { request: ValuationRequest }) => k.request, (c) => c.valuation.asset_id);
export const checkBreakdown = assetAnswer(Breakdown, 'score breakdown', (assetId: string) => ({ asset_id: assetId }), (b) => b.asset_id);
export const checkProjection = assetAnswer(Projection, 'projection', asIs, (p) => p.asset_id);
export const checkExit = assetAnswer(ExitStrategy, 'exit analysis', asIs, (x) => x.asset_id);
