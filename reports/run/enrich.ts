import { PermissionDeniedError, ServiceError, type ServiceClient } from '../../src/client';
import { MAX_PORTFOLIO_ASSETS, type Currency, type ExitStrategy, type PortfolioAssetInput, type Performance, type Projection } from '../../src/wire';
import type { Holding, PortfolioInput } from '../../src/holdings/types';
import type { Section } from '../report-data';
import type { ItemResult, PortfolioResults } from './results';
import { mapSection } from '../build/sections';
import { valuationRequest } from '../../src/holdings/requests';

/** How many of the largest holdings get projections and exit analysis. */
export const TOP_HOLDINGS = 5;

/** Requests enrich() may spend for a portfolio of `valued` holdings (for the budget check). */
export function enrichmentRequests(valued: number): number {
  if (valued === 0) return 0;
  return 2 * Math.min(TOP_HOLDINGS, valued) + 2;
}

export interface EnrichOptions {
  currency: Currency;
  signal: AbortSignal;
}

const omittedForTier = (what: string, scope: string) =>
  `Omitted: the account's tier does not include ${what} (the service answered 403 Forbidden for the ${scope} scope).`;

/**
 * Projections and exit analysis for the largest holdings, and performance against the
 * benchmarks. A 403 omits that section with a note; the run still succeeds. Other failures
 * omit what failed and say so.
 */
export async function enrich(client: ServiceClient, input: PortfolioInput, valuations: readonly (ItemResult | null)[], opts: EnrichOptions): Promise<Pick<PortfolioResults, 'performance' | 'projections' | 'exits' | 'problems'>> {
  const valued = input.holdings
    .map((h, index) => ({ h, index, v: valuations[index] }))
    .filter((x): x is { h: Holding; index: number; v: Extract<ItemResult, { ok: true }> } => x.v?.ok === true)
    .map((x) => ({ ...x, value: x.v.mid }));
  if (valued.length === 0) {
    const none = { included: false as const, note: 'Omitted: no holding was valued.' };
    return { projections: none, exits: none, performance: none, problems: [] };
  }
  const top = [...valued].sort((a, b) => b.value - a.value || a.index - b.index).slice(0, TOP_HOLDINGS).filter((x) => x.value > 0);
  const ro = { signal: opts.signal };

  const projections = await perHolding<Projection>(top, 'projections', 'projections', async (x) =>
    (await client.projections.create({ asset_id: x.h.assetId, current_value: x.value, horizons: [12, 24, 36], currency: opts.currency }, ro)).projection,
  );
  const exits = await perHolding<ExitStrategy>(top, 'exit analysis', 'exit', async (x) =>
    (await client.exit.analyse({ asset_id: x.h.assetId, current_value: x.value, urgency: 'flexible', currency: opts.currency }, ro)).exit_strategy,
  );
  const performance = await portfolioPerformance(client, input.name, valued.map((x) => x.h), opts);
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
  if (holdings.length > MAX_PORTFOLIO_ASSETS) {
    return { included: false, note: `Omitted: the service's portfolio analytics take at most ${MAX_PORTFOLIO_ASSETS} holdings; this portfolio has ${holdings.length}.` };
  }
  try {
    const created = await client.portfolio.create({ name: name.slice(0, 200), assets: holdings.map(portfolioAsset), currency: opts.currency }, { signal: opts.signal });
    const { performance } = await client.portfolio.performance(created.portfolio.id, { signal: opts.signal });
    return { included: true, data: performance };
  } catch (e) {
    return { included: false, note: omissionNote(e, 'performance against benchmarks', 'portfolio') };
  }
}

function portfolioAsset(h: Holding): PortfolioAssetInput {
  return { ...valuationRequest(h), asset_id: h.assetId, purchase_price: h.purchasePrice, purchase_date: h.purchaseDate };
}

async function perHolding<T>(
  top: readonly { index: number; h: Holding; value: number }[],
  what: string,
  scope: string,
  call: (x: { index: number; h: Holding; value: number }) => Promise<T>,
): Promise<Section<{ index: number; value: T }[]>> {
  const rows: { index: number; value: T }[] = [];
  const failed: string[] = [];
  for (const x of top) {
    try {
      rows.push({ index: x.index, value: await call(x) });
    } catch (e) {
      if (e instanceof PermissionDeniedError) return { included: false, note: omittedForTier(what, scope) };
      if (!(e instanceof ServiceError) || e.name === 'AbortedError') throw e;
      failed.push(`row ${x.h.source.row} (${e.message.replace(/\.$/, '')})`);
    }
  }
  if (rows.length === 0 && failed.length > 0) return { included: false, note: `Omitted: ${what} failed for every holding: ${failed.join('; ')}.` };
  return { included: true, data: rows, note: failed.length ? `Not available for ${failed.join('; ')}.` : undefined };
}

function omissionNote(e: unknown, what: string, scope: string): string {
  if (e instanceof PermissionDeniedError) return omittedForTier(what, scope);
  if (e instanceof ServiceError && e.name !== 'AbortedError') return `Omitted: ${what} could not be fetched: ${e.message.replace(/\.$/, '')}.`;
  throw e;
}
