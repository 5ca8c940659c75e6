import type { LandedChunk, ServiceClient } from '../../src/client';
import { MAX_BATCH, type Currency } from '../../src/wire';
import type { PortfolioInput } from '../../src/holdings/types';
import type { PortfolioState } from './checkpoint';
import type { ItemResult } from './results';
import { scoreResult, valuationResult } from './outcomes';
import { scoreRequest, valuationRequest } from '../../src/holdings/requests';
import { CallWindow } from './call-window';
import { answeredHolding } from './answered';

export type Phase = 'valuations' | 'scores';

export interface ValuateOptions {
  currency: Currency;
  signal: AbortSignal;
  /** The run's bound on calls in flight, shared with other portfolios; default: one for this call, sized from the client's pacing. */
  window?: CallWindow;
  /**
   * Called for every chunk as it lands (in any order when several are in flight), once its
   * results are in `state`: the checkpoint journals the chunk here. `done` of `total` counts
   * the phase's holdings settled so far.
   */
  afterChunk(phase: Phase, chunk: readonly number[], done: number, total: number): Promise<void>;
  /** Called once when the valuations' last chunks are in flight and their run starts giving slots back: scoring may start. */
  onTail?(): void;
}

/**
 * Holdings still to value: never valued, failed for a reason that may pass (budget, network, 5xx),
 * or valued in a checkpoint that did not keep the answered id (every later call needs it).
 */
export function valuationsToDo(input: PortfolioInput, state: PortfolioState): number[] {
  return input.holdings.map((_, i) => i).filter((i) => {
    const v = state.valuations[i];
    return v === null || v === undefined || (!v.ok && v.transient) || (v.ok && v.asset_id === undefined);
  });
}

export function scoresToDo(input: PortfolioInput, state: PortfolioState): number[] {
  return input.holdings.map((_, i) => i).filter((i) => state.valuations[i]?.ok === true && (state.scores[i] === null || state.scores[i] === undefined));
}

/** Values, then scores, a portfolio's holdings (the add-in's export; the job overlaps scores with enrichment). */
export async function valuate(client: ServiceClient, input: PortfolioInput, state: PortfolioState, opts: ValuateOptions): Promise<void> {
  const o = { ...opts, window: opts.window ?? CallWindow.of(undefined, () => client.pacing()) };
  await valueHoldings(client, input, state, o);
  await scoreHoldings(client, input, state, o);
}

/**
 * Values the holdings still to do through the client's bulk runner (its chunks of 50, several
 * in flight), each chunk's results written into `state` and journaled as it lands.
 */
export async function valueHoldings(client: ServiceClient, input: PortfolioInput, state: PortfolioState, opts: ValuateOptions & { window: CallWindow }): Promise<void> {
  const total = input.holdings.length;
  const toValue = valuationsToDo(input, state);
  // Counted as chunks land, not by rescanning the portfolio after each one (2,000 chunks of a 100,000-holding portfolio).
  let valued = total - toValue.length;
  await inWindow(opts.window, toValue.length, opts.signal, opts.onTail, (concurrency, landed) =>
    client.valueAll(
      toValue.map((i) => valuationRequest(input.holdings[i]!)),
      {
        signal: opts.signal,
        currency: opts.currency,
        concurrency,
        onChunk: async (chunk) => {
          const positions = atPositions(toValue, chunk, (i, o) => (state.valuations[i] = valuationResult(o)));
          valued += positions.filter((i) => settled(state.valuations[i]!)).length;
          landed();
          await opts.afterChunk('valuations', positions, valued, total);
        },
      },
    ),
  );
}

/** Scores the valued holdings not scored yet (or those of `only`), the same way. */
export async function scoreHoldings(client: ServiceClient, input: PortfolioInput, state: PortfolioState, opts: ValuateOptions & { window: CallWindow }, only?: readonly number[]): Promise<void> {
  const toScore = only ? [...only] : scoresToDo(input, state);
  let scored = 0;
  await inWindow(opts.window, toScore.length, opts.signal, undefined, (concurrency, landed) =>
    client.scoreAll(
      toScore.map((i) => scoreRequest(answeredHolding(input.holdings[i]!, state.valuations[i]))),
      {
        signal: opts.signal,
        concurrency,
        onChunk: async (chunk) => {
          const positions = atPositions(toScore, chunk, (i, o) => (state.scores[i] = scoreResult(o) ?? false));
          scored += positions.length;
          landed();
          await opts.afterChunk('scores', positions, scored, toScore.length);
        },
      },
    ),
  );
}

/**
 * Runs a bulk run of `items` with as many chunks in flight as the window grants, and gives the
 * slots back as the last chunks land: after L of C chunks have landed at most C − L can still
 * be in flight, so the rest of the window goes to other portfolios at once.
 */
async function inWindow(window: CallWindow, items: number, signal: AbortSignal, onTail: (() => void) | undefined, run: (concurrency: number, landed: () => void) => Promise<unknown>): Promise<void> {
  if (items === 0) return;
  const chunks = Math.ceil(items / MAX_BATCH);
  let held = await window.acquire(chunks, signal);
  let landedCount = 0;
  const landed = () => {
    landedCount++;
    const needed = Math.min(held, Math.max(0, chunks - landedCount));
    if (needed < held) {
      window.release(held - needed);
      held = needed;
      onTail?.();
      onTail = undefined;
    }
  };
  try {
    await run(held, landed);
  } finally {
    window.release(held);
  }
}

/** Writes a landed chunk's outcomes at the holdings' positions; answers those positions. */
function atPositions<T>(positions: readonly number[], chunk: LandedChunk<T>, write: (position: number, outcome: LandedChunk<T>['outcomes'][number]) => void): number[] {
  return chunk.indices.map((k, j) => {
    const i = positions[k]!;
    write(i, chunk.outcomes[j]!);
    return i;
  });
}

/** Valued, or refused for good: a transient failure is still to do. */
function settled(v: ItemResult): boolean {
  return v.ok || !v.transient;
}
