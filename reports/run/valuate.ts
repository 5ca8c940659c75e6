import type { ServiceClient } from '../../src/client';
import { MAX_BATCH, type Currency } from '../../src/wire';
import type { PortfolioInput } from '../../src/holdings/types';
import type { PortfolioState } from './checkpoint';
import type { ItemResult } from './results';
import { scoreResult, valuationResult } from './outcomes';
import { scoreRequest, valuationRequest } from '../../src/holdings/requests';

export interface ValuateOptions {
  currency: Currency;
  signal: AbortSignal;
  /** Called after every chunk, once its results are in `state`: the checkpoint records the chunk here. */
  afterChunk(phase: 'valuations' | 'scores', chunk: readonly number[], done: number, total: number): Promise<void>;
}

/** Holdings still to value: never valued, or failed for a reason that may pass (budget, network, 5xx). */
export function valuationsToDo(input: PortfolioInput, state: PortfolioState): number[] {
  return input.holdings.map((_, i) => i).filter((i) => {
    const v = state.valuations[i];
    return v === null || v === undefined || (!v.ok && v.transient);
  });
}

export function scoresToDo(input: PortfolioInput, state: PortfolioState): number[] {
  return input.holdings.map((_, i) => i).filter((i) => state.valuations[i]?.ok === true && (state.scores[i] === null || state.scores[i] === undefined));
}

/**
 * Values, then scores, a portfolio's holdings in chunks of at most 50, one chunk at a time,
 * so every chunk is one batch call and is checkpointed before the next is sent.
 */
export async function valuate(client: ServiceClient, input: PortfolioInput, state: PortfolioState, opts: ValuateOptions): Promise<void> {
  const total = input.holdings.length;
  const toValue = valuationsToDo(input, state);
  // Counted as chunks land, not by rescanning the portfolio after each one (2,000 chunks of a 100,000-holding portfolio).
  let valued = total - toValue.length;
  for (const chunk of chunks(toValue)) {
    const outcomes = await client.valueAll(chunk.map((i) => valuationRequest(input.holdings[i]!)), { signal: opts.signal, currency: opts.currency, concurrency: 1 });
    chunk.forEach((i, k) => (state.valuations[i] = valuationResult(outcomes[k]!)));
    valued += chunk.filter((i) => settled(state.valuations[i]!)).length;
    await opts.afterChunk('valuations', chunk, valued, total);
  }
  const toScore = scoresToDo(input, state);
  let scored = 0;
  for (const chunk of chunks(toScore)) {
    const outcomes = await client.scoreAll(chunk.map((i) => scoreRequest(input.holdings[i]!)), { signal: opts.signal, concurrency: 1 });
    chunk.forEach((i, k) => (state.scores[i] = scoreResult(outcomes[k]!) ?? false));
    scored += chunk.length;
    await opts.afterChunk('scores', chunk, scored, toScore.length);
  }
}

/** Valued, or refused for good: a transient failure is still to do. */
function settled(v: ItemResult): boolean {
  return v.ok || !v.transient;
}

function chunks(indices: number[]): number[][] {
  const out: number[][] = [];
  for (let k = 0; k < indices.length; k += MAX_BATCH) out.push(indices.slice(k, k + MAX_BATCH));
  return out;
}
