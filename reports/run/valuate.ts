import type { LandedChunk, ServiceClient } from '../../src/client';
import { MAX_BATCH, type Currency } from '../../src/wire';
import type { PortfolioInput } from '../../src/holdings/types';
import type { PortfolioState } from './checkpoint';
import type { ItemResult } from './results';
import { scoreResult, valuationResult } from './outcomes';
import { descriptorRequest, scoreRequest, valuationRequest } from '../../src/holdings/requests';
import { CallWindow, MAX_AUTO_WINDOW } from './call-window';
import { answeredHolding } from './answered';
import { drained } from './departures';

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
  /** --allow-unknown-ids: a holding whose asset id the service did not issue is valued from its descriptors instead of refused. */
  allowUnknownIds?: boolean;
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
 * Values the holdings still to do in chunks of 50 (each exactly one batch call), several in
 * flight through the window, each chunk's results written into `state` and journaled as it lands.
 */
export async function valueHoldings(client: ServiceClient, input: PortfolioInput, state: PortfolioState, opts: ValuateOptions & { window: CallWindow }): Promise<void> {
  const total = input.holdings.length;
  const toValue = valuationsToDo(input, state);
  // Counted as chunks land, not by rescanning the portfolio after each one (2,000 chunks of a 100,000-holding portfolio).
  let valued = total - toValue.length;
  await chunkwise(opts.window, toValue, opts.signal, opts.onTail, (positions, signal, headers) =>
    client.valueAll(
      positions.map((i) => valuationRequest(input.holdings[i]!)),
      {
        signal,
        headers,
        currency: opts.currency,
        concurrency: 1,
        onChunk: async (chunk) => {
          const landed = atPositions(positions, chunk, (i, o) => (state.valuations[i] = valuationResult(o, input.holdings[i]!.assetId)));
          if (opts.allowUnknownIds) await valueFromDescriptors(client, input, state, landed, { signal, headers, currency: opts.currency });
          valued += landed.filter((i) => settled(state.valuations[i]!)).length;
          await opts.afterChunk('valuations', landed, valued, total);
        },
      },
    ),
  );
}

/**
 * The holdings of a landed chunk whose asset id the service did not issue, valued again from
 * the descriptors their row gives (those its id encodes, when it has no others), before the
 * chunk is journaled: they land valued and marked for the analyst, or refused with the
 * descriptors' own error. One batch call for the chunk's unknown ids, none when there are none.
 */
async function valueFromDescriptors(client: ServiceClient, input: PortfolioInput, state: PortfolioState, landed: readonly number[], call: { signal: AbortSignal; headers: Record<string, string>; currency: Currency }): Promise<void> {
  const unknown = landed.filter((i) => {
    const v = state.valuations[i];
    return v !== null && v !== undefined && !v.ok && v.unknown_id === true;
  });
  if (unknown.length === 0) return;
  const outcomes = await client.valueAll(
    unknown.map((i) => descriptorRequest(input.holdings[i]!)),
    { ...call, concurrency: 1 },
  );
  unknown.forEach((i, k) => {
    const v = valuationResult(outcomes[k]!);
    state.valuations[i] = v.ok ? { ...v, from_descriptors: true } : v;
  });
}

/** Scores the valued holdings not scored yet (or those of `only`), the same way. */
export async function scoreHoldings(client: ServiceClient, input: PortfolioInput, state: PortfolioState, opts: ValuateOptions & { window: CallWindow }, only?: readonly number[]): Promise<void> {
  const toScore = only ? [...only] : scoresToDo(input, state);
  let scored = 0;
  await chunkwise(opts.window, toScore, opts.signal, undefined, (positions, signal, headers) =>
    client.scoreAll(
      positions.map((i) => scoreRequest(answeredHolding(input.holdings[i]!, state.valuations[i]))),
      {
        signal,
        headers,
        concurrency: 1,
        onChunk: async (chunk) => {
          const landed = atPositions(positions, chunk, (i, o) => (state.scores[i] = scoreResult(o) ?? false));
          scored += landed.length;
          await opts.afterChunk('scores', landed, scored, toScore.length);
        },
      },
    ),
  );
}

/**
 * Sends `positions` in chunks of MAX_BATCH, each chunk one bulk call of its own holding one
 * slot of the window while it waits at the gate, is answered and journaled. Slots are taken
 * per chunk, not once per phase, so the number in flight follows the window as it grows with
 * the observed round trip (a phase that started while only a cheap call had been timed would
 * otherwise keep a window sized for a few milliseconds to its end). `onTail` fires once every
 * chunk has left and slots start coming back: the next phase may start.
 * The first failure or the stop signal stops new chunks; the chunks in flight are awaited
 * before it is thrown.
 */
async function chunkwise(window: CallWindow, positions: readonly number[], signal: AbortSignal, onTail: (() => void) | undefined, send: (chunk: readonly number[], signal: AbortSignal, headers: Record<string, string>) => Promise<unknown>): Promise<void> {
  const chunks: number[][] = [];
  for (let k = 0; k < positions.length; k += MAX_BATCH) chunks.push(positions.slice(k, k + MAX_BATCH));
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < chunks.length) {
      const chunk = chunks[next++]!;
      try {
        // Once its request has left, a chunk is awaited on Ctrl-C, not cancelled (departures.ts).
        await window.run(() => drained(signal, (callSignal, headers) => send(chunk, callSignal, headers)), signal);
      } catch (e) {
        failure ??= { error: e };
      }
    }
    if (next >= chunks.length) {
      onTail?.();
      onTail = undefined;
    }
  };
  // Workers only bound how many of this phase's chunks wait for a slot at once; the window decides how many are in flight.
  await Promise.all(Array.from({ length: Math.min(chunks.length, Math.max(window.size, MAX_AUTO_WINDOW)) }, worker));
  if (failure) throw failure.error;
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
