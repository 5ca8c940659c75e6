import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import { AbortedError, type ServiceClient } from '../../src/client';
import type { Currency } from '../../src/wire';
import type { PortfolioInput } from '../../src/holdings/types';
import { planBudget, type PortfolioNeed } from './budget';
import { CallWindow } from './call-window';
import { valuedHoldings } from './answered';
import { resultsOf, type PortfolioState, type RunJournal } from './checkpoint';
import { enrich, enrichmentRequests, portfolioPerformance } from './enrich';
import { RunProgress, type Progress } from './progress';
import type { PortfolioResults } from './results';
import { scoreHoldings, scoresToDo, valuationsToDo, valueHoldings, type ValuateOptions } from './valuate';
import { NO_TELEMETRY, type RunTelemetry } from './telemetry';

export interface ValueOptions {
  currency: Currency;
  signal: AbortSignal;
  progress: Progress;
  consolidated: boolean;
  /** Calls in flight at most (--concurrency); undefined: sized by Little's law from the client's pace and round trip. */
  concurrency?: number;
  /** Called as each portfolio's results are complete (skipped ones at once): its reports can be written while others are valued. */
  onPortfolio?(name: string, results: PortfolioResults): void;
  /** Portfolios' phases and chunks journaled, for the metrics. */
  telemetry?: RunTelemetry;
  /** --allow-unknown-ids (valuate.ts). */
  allowUnknownIds?: boolean;
}

/**
 * Budget check, then every portfolio that fits: valuations (journaled per chunk as they land),
 * then scores and enrichment together. Several portfolios are in flight at once and all their
 * calls share one window (CallWindow), so a remote service's round trip never leaves the
 * account's pace unused; the rate gate alone decides when each call leaves.
 */
export async function valueEverything(client: ServiceClient, portfolios: readonly PortfolioInput[], cp: RunJournal, o: ValueOptions): Promise<Map<string, PortfolioResults>> {
  // One cheap call: authenticates, and the rate headers tell what is left of today's budget (and the first round trip).
  await client.segments.list({ signal: o.signal });
  const states = new Map(portfolios.map((p) => [p.name, cp.portfolio(p.name)]));
  const decisions = planBudget(needsOf(portfolios, states), client.rateLimitStatus(), o.consolidated && !cp.state.consolidated ? 2 : 0);

  const telemetry = o.telemetry ?? NO_TELEMETRY;
  const results = new Map<string, PortfolioResults>();
  const fitting: PortfolioInput[] = [];
  for (const [k, p] of portfolios.entries()) {
    const decision = decisions[k]!;
    telemetry.portfolio(undefined, decision.fits ? 'queued' : 'failed');
    if (decision.fits) fitting.push(p);
    else {
      o.progress.log(decision.message!);
      results.set(p.name, skipped(p, states.get(p.name)!, decision.message!));
      o.onPortfolio?.(p.name, results.get(p.name)!);
    }
  }

  const window = CallWindow.of(o.concurrency, () => client.pacing());
  const toFinish = fitting.reduce((n, p) => n + valuationsToDo(p, states.get(p.name)!).length + scoresToDo(p, states.get(p.name)!).length, 0);
  const progress = new RunProgress(o.progress, fitting.length === 1 ? fitting[0]!.name : `${fitting.length} portfolios`, toFinish, () => client.rateLimitStatus().minuteRemaining);
  // A failure in one portfolio stops the others (no new call leaves); all are awaited before the run rejects.
  const stop = new AbortController();
  const signal = AbortSignal.any([o.signal, stop.signal]);
  // Every call in flight across the portfolios listens to it: more than Node's default of ten is expected.
  setMaxListeners(0, signal);

  const valuePortfolio = async (p: PortfolioInput) => {
    const state = states.get(p.name)!;
    // New valuations (a resumed retry) make earlier projections and performance stale.
    if (valuationsToDo(p, state).length > 0 && state.enrichment) await cp.dropEnrichment(p.name);
    const opts: ValuateOptions & { window: CallWindow } = {
      currency: o.currency,
      allowUnknownIds: o.allowUnknownIds,
      signal,
      window,
      afterChunk: async (phase, chunk) => {
        await (phase === 'valuations' ? cp.recordValuations(p.name, chunk) : cp.recordScores(p.name, chunk));
        telemetry.chunkJournaled(phase);
        // A holding is finished once scored, or once its valuation failed (it is not scored).
        progress.finished(phase === 'valuations' ? chunk.filter((i) => !state.valuations[i]!.ok).length : chunk.length);
      },
    };
    // Scoring starts while the valuations' last chunks are in flight (no drain between the two),
    // for what is valued by then; the rest, and enrichment, once all valuations are in. Every
    // part is awaited from the moment it starts: an early scoring cancelled by Ctrl-C must not
    // reject unobserved while the last valuations are still landing (an unhandled rejection:
    // exit 1 instead of 130).
    let early: number[] | undefined;
    let tailReached!: () => void;
    const tail = new Promise<void>((resolve) => (tailReached = resolve));
    opts.onTail = () => {
      early = scoresToDo(p, state);
      tailReached();
    };
    const valued = valueHoldings(client, p, state, opts).finally(() => tailReached());
    const earlyScores = tail.then(() => (early ? scoreHoldings(client, p, state, opts, early) : undefined));
    const enrichment = async () => {
      if (state.enrichment) return;
      state.enrichment = await enrich(client, p, state.valuations, { currency: o.currency, signal, window });
      await cp.recordEnrichment(p.name);
    };
    const afterValuations = valued.then(() => {
      const first = new Set(early ?? []);
      return settleAll([scoreHoldings(client, p, state, opts, scoresToDo(p, state).filter((i) => !first.has(i))), enrichment()]);
    });
    await settleAll([earlyScores, afterValuations]);
    results.set(p.name, resultsOf(state));
    o.onPortfolio?.(p.name, results.get(p.name)!);
  };

  // Portfolios in flight: enough that their calls fill the window (each has at least one call waiting most of the time).
  const portfoliosInFlight = pLimit(window.size + 1);
  await settleAll(
    fitting.map((p) =>
      portfoliosInFlight(() => {
        portfoliosInFlight.concurrency = window.size + 1;
        if (signal.aborted) return Promise.reject(new AbortedError({ status: 0, type: 'aborted', message: 'The request was cancelled.' }));
        telemetry.portfolio('queued', 'in_progress');
        return valuePortfolio(p).then(
          () => telemetry.portfolio('in_progress', 'done'),
          (e: unknown) => {
            // Cancelled (Ctrl-C, a worker stopping): it goes back to wait, it did not fail.
            telemetry.portfolio('in_progress', e instanceof AbortedError ? 'queued' : 'failed');
            throw e;
          },
        );
      }).catch((e: unknown) => {
        stop.abort();
        throw e;
      }),
    ),
  ).finally(() => cp.flush());

  if (o.consolidated && !cp.state.consolidated) {
    const valued = portfolios.flatMap((p) => valuedHoldings(p.holdings, results.get(p.name)!.valuations));
    cp.state.consolidated = { performance: await portfolioPerformance(client, 'Consolidated', valued, { currency: o.currency, signal: o.signal, window }) };
    await cp.recordConsolidated();
  }
  return results;
}

/** What each portfolio still needs of the day's budget (planBudget's input); also the queue's pre-check (reports/queue). */
export function needsOf(portfolios: readonly PortfolioInput[], states: ReadonlyMap<string, PortfolioState>): PortfolioNeed[] {
  return portfolios.map((p) => {
    const state = states.get(p.name)!;
    const toValue = valuationsToDo(p, state).length;
    const toScore = toValue + scoresToDo(p, state).length;
    return { name: p.name, holdings: p.holdings.length, valuationsToDo: toValue, scoresToDo: toScore, enrichment: state.enrichment ? 0 : enrichmentRequests(p.holdings.length) };
  });
}

/**
 * Waits for every task, also after one failed (nothing is left writing to the checkpoint),
 * then rejects with the first failure that is not a cancellation, else the first one.
 */
async function settleAll(tasks: readonly Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(tasks);
  const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (failures.length > 0) throw failures.find((e) => !(e instanceof AbortedError)) ?? failures[0];
}

/** A portfolio the day's budget could not cover: nothing spent, every holding listed as not valued. */
export function skipped(p: PortfolioInput, state: PortfolioState, message: string): PortfolioResults {
  const note = { included: false as const, note: 'Omitted: the portfolio was not valued (see the errors).' };
  return {
    valuations: p.holdings.map((_, i) => {
      const v = state.valuations[i];
      return v && (v.ok || !v.transient) ? v : { ok: false as const, field: '', message: "today's request budget does not cover this portfolio", transient: true };
    }),
    scores: [],
    performance: note,
    projections: note,
    exits: note,
    problems: [message],
  };
}
