import { PermissionDeniedError, ServiceError, type ServiceClient } from '../../src/client';
import { MAX_PORTFOLIO_ASSETS, type Currency, type ExitStrategy, type PortfolioAssetInput, type Performance, type Projection } from '../../src/wire';
import type { Holding, PortfolioInput } from '../../src/holdings/types';
import type { Section } from '../report-data';
import type { ItemResult, PortfolioResults } from './results';
import { mapSection } from '../build/sections';
import { valuationRequest } from '../../src/holdings/requests';
import { CallWindow } from './call-window';
import { answeredHolding } from './answered';
import { groupPositions, largestPositions } from './positions';

/** How many of the largest positions (identical holdings together) get projections and exit analysis. */
export const TOP_HOLDINGS = 5;

/** Requests enrich() may spend for a portfolio of `valued` holdings (for the budget check). */
export function enrichmentRequests(valued: number): number {
  if (valued === 0) return 0;
  return 2 * Math.min(TOP_HOLDINGS, valued) + 2;
}

export interface EnrichOptions {
  currency: Currency;
  signal: AbortSignal;
  /** The run's bound on calls in flight; default: one for this portfolio, sized from the client's pacing. */
  window?: CallWindow;
}

const omittedForTier = (what: string, scope: string) =>
  `Omitted: the account's tier does not include ${what} (the service answered 403 Forbidden for the ${scope} scope).`;

/**
 * Projections and exit analysis for the largest positions, and performance against the
 * benchmarks, all three at once and each holding's calls in flight together (through the
 * run's window). A 403 omits that section with a note; the run still succeeds. Other
 * failures omit what failed and say so.
 */
export async function enrich(client: ServiceClient, input: PortfolioInput, valuations: readonly (ItemResult | null)[], options: EnrichOptions): Promise<Pick<PortfolioResults, 'performance' | 'projections' | 'exits' | 'problems'>> {
  const opts = { ...options, window: options.window ?? CallWindow.of(undefined, () => client.pacing()) };
  // Positions only: a portfolio of 15,000 holdings is not copied or sorted whole here (that
  // held the event loop for ~100 ms while the last score calls were due to leave).
  const valued: number[] = [];
  for (let i = 0; i < input.holdings.length; i++) if (valuations[i]?.ok === true) valued.push(i);
  if (valued.length === 0) {
    const none = { included: false as const, note: 'Omitted: no holding was valued.' };
    return { projections: none, exits: none, performance: none, problems: [] };
  }
  // Named by the id the valuation answered with, for every call below (answered.ts).
  const named = (index: number) => {
    const v = valuations[index] as Extract<ItemResult, { ok: true }>;
    return { index, h: answeredHolding(input.holdings[index]!, v), value: v.mid };
  };
  // Identical holdings are one position, asked about once at their value together (the report's
  // row stands for all of them); its first line names it in the results.
  const positions = groupPositions(valued, (i) => named(i).h.assetId, (i) => (valuations[i] as Extract<ItemResult, { ok: true }>).mid);
  const top = largestPositions(positions, TOP_HOLDINGS)
    .map((p) => ({ ...named(p.lines[0]!), value: p.value }))
    .filter((x) => x.value > 0);
  const ro = { signal: opts.signal };
  const inWindow = <T>(call: () => Promise<T>) => opts.window.run(call, opts.signal);

  const [projections, exits, performance] = await Promise.all([
    perHolding<Projection>(top, 'projections', 'projections', (x) =>
      inWindow(async () => (await client.projections.create({ asset_id: x.h.assetId, current_value: x.value, horizons: [12, 24, 36], currency: opts.currency }, ro)).projection),
    ),
    perHolding<ExitStrategy>(top, 'exit analysis', 'exit', (x) =>
      inWindow(async () => (await client.exit.analyse({ asset_id: x.h.assetId, current_value: x.value, urgency: 'flexible', currency: opts.currency }, ro)).exit_strategy),
    ),
    valued.length > MAX_PORTFOLIO_ASSETS ? tooManyForAnalytics(valued.length) : portfolioPerformance(client, input.name, valued.map((i) => named(i).h), opts),
  ]);
  return {
    projections: mapSection(projections, (rows) => rows.map(({ index, value }) => ({ index, projection: value }))),
    exits: mapSection(exits, (rows) => rows.map(({ index, value }) => ({ index, exit: value }))),
    performance,
    problems: [],
  };
}

/** Creates the portfolio on the service (valued holdings only) and reads its performance. */
export async function portfolioPerformance(client: ServiceClient, name: string, holdings: readonly Holding[], opts: EnrichOptions): Promise<Section<Performance>> {
  if (holdings.length === 0) return { included: false, note: 'Omitted: no holding was valued.' };
  if (holdings.length > MAX_PORTFOLIO_ASSETS) return tooManyForAnalytics(holdings.length);
  const ro = { signal: opts.signal };
  const inWindow = <T>(call: () => Promise<T>) => (opts.window ? opts.window.run(call, opts.signal) : call());
  try {
    const created = await inWindow(() => client.portfolio.create({ name: name.slice(0, 200), assets: holdings.map(portfolioAsset), currency: opts.currency }, ro));
    const { performance } = await inWindow(() => client.portfolio.performance(created.portfolio.id, ro));
    return { included: true, data: performance };
  } catch (e) {
    return omission(e, 'performance against benchmarks', 'portfolio');
  }
}

function tooManyForAnalytics(count: number): Section<Performance> & { included: false } {
  return { included: false, note: `Omitted: the service's portfolio analytics take at most ${MAX_PORTFOLIO_ASSETS} holdings; this portfolio has ${count}.` };
}

function portfolioAsset(h: Holding): PortfolioAssetInput {
  return { ...valuationRequest(h), asset_id: h.assetId, purchase_price: h.purchasePrice, purchase_date: h.purchaseDate };
}

/**
 * One call per holding, in the holdings' order in the section whatever order the answers come
 * in. The first call goes alone: a tier without the scope answers 403 once instead of once per
 * holding; the rest then go together.
 */
async function perHolding<T>(
  top: readonly { index: number; h: Holding; value: number }[],
  what: string,
  scope: string,
  call: (x: { index: number; h: Holding; value: number }) => Promise<T>,
): Promise<Section<{ index: number; value: T }[]>> {
  const attempt = async (x: (typeof top)[number]): Promise<{ ok: true; value: T } | { ok: false; denied: boolean; why: string }> => {
    try {
      return { ok: true, value: await call(x) };
    } catch (e) {
      if (e instanceof PermissionDeniedError) return { ok: false, denied: true, why: '' };
      if (!(e instanceof ServiceError) || e.name === 'AbortedError') throw e;
      return { ok: false, denied: false, why: `row ${x.h.source.row} (${e.message.replace(/\.$/, '')})` };
    }
  };
  if (top.length === 0) return { included: true, data: [] };
  const first = await attempt(top[0]!);
  if (!first.ok && first.denied) return { included: false, note: omittedForTier(what, scope) };
  const outcomes = [first, ...(await Promise.all(top.slice(1).map(attempt)))];
  if (outcomes.some((o) => !o.ok && o.denied)) return { included: false, note: omittedForTier(what, scope) };
  const rows = outcomes.flatMap((o, k) => (o.ok ? [{ index: top[k]!.index, value: o.value }] : []));
  const failed = outcomes.flatMap((o) => (o.ok ? [] : [o.why]));
  if (rows.length === 0 && failed.length > 0) return { included: false, note: `Omitted: ${what} failed for every holding: ${failed.join('; ')}.`, failed: true };
  return { included: true, data: rows, note: failed.length ? `Not available for ${failed.join('; ')}.` : undefined };
}

/** A tier without the scope leaves the section out by design; any other service failure is a failure (exit 3). */
function omission(e: unknown, what: string, scope: string): { included: false; note: string; failed?: true } {
  if (e instanceof PermissionDeniedError) return { included: false, note: omittedForTier(what, scope) };
  if (e instanceof ServiceError && e.name !== 'AbortedError') return { included: false, note: `Omitted: ${what} could not be fetched: ${e.message.replace(/\.$/, '')}.`, failed: true };
  throw e;
}
