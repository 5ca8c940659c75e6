import type { z } from 'zod';
import {
  OPERATIONS,
  canonicalAsset,
  purchaseDateProblem,
  type AssetDescriptor,
  type BatchValuationItem,
  type CanonicalAsset,
  type Currency,
  type Horizon,
  type OperationName,
  type Projection,
  type ResponseOf,
  type Valuation,
} from '../../wire';
import type { Market, MarketContext, StoredPortfolio } from '../market/market';
import { withParticulars } from '../market/resolve';
import { AccountStore, newId } from './account-store';
import { marketContext, segmentParam } from './context';
import { HttpError, validationError } from './http-error';
import type { Caller, TokenService } from './tokens';

type Ops = typeof OPERATIONS;
/** The validated request body of an operation (undefined for those without one). */
export type ParsedRequestOf<N extends OperationName> = Ops[N] extends { request: infer S extends z.ZodType } ? z.output<S> : undefined;

export interface HandlerInput<N extends OperationName> {
  body: ParsedRequestOf<N>;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Present for every operation that needs a token. */
  caller: Caller | undefined;
  /** The market day (today or x-sandbox-as-of) and the time of the answer. */
  day: string;
  now: Date;
}

export type Handlers = { [N in OperationName]: (input: HandlerInput<N>) => ResponseOf<N> | Promise<ResponseOf<N>> };

export type StoredValuation = Omit<Valuation, 'status'> & { id: string };

export interface HandlerDeps {
  market: Market;
  tokens: TokenService;
  storeLimit: number;
}

/** Every operation's work: ids, storage and shaping around the market model, which owns the numbers. */
export function createHandlers({ market, tokens, storeLimit }: HandlerDeps): Handlers {
  const valuations = new AccountStore<StoredValuation>(storeLimit);
  const projections = new AccountStore<Projection>(storeLimit);
  const portfolios = new AccountStore<StoredPortfolio>(storeLimit);

  const ctxOf = (i: { day: string; now: Date }, currency?: Currency): MarketContext => marketContext(i.day, i.now, currency ?? 'USD');

  const assetFor = (assetId: string, field = 'asset_id'): CanonicalAsset => {
    const asset = market.assetForId(assetId);
    if (!asset) throw validationError(field, `${field} '${assetId}' is not an asset id of the form SVC-{SEGMENT}-{BRAND}-{REF}[-{YEAR}], e.g. SVC-WAT-ROLEX-126610LN-2020`);
    return asset;
  };

  /**
   * A valuation request naming an asset_id is answered for that asset (ids are keys), with the
   * request's particulars; an id the service never issued is a 404 naming the field, not a price
   * made up from the id's parts (docs/decisions.md). A description is valued whatever its brand.
   */
  const requestedAsset = (body: ParsedRequestOf<'createValuation'>, field = 'asset_id'): CanonicalAsset => {
    if (body.asset_id === undefined) return toCanonical(body);
    const asset = assetFor(body.asset_id, field);
    if (!market.isIssued(body.asset_id)) throw notIssued(body.asset_id, field, market.issuedExamples(asset.segment));
    return withParticulars(asset, body);
  };

  /** A portfolio item naming no maker is the asset its asset_id names: an id that names none is a 400 on that item's asset_id. */
  const checkItemIds = (assets: ParsedRequestOf<'createPortfolio'>['assets']) =>
    assets.forEach((a, n) => {
      if (a.asset_id !== undefined && !(a.brand ?? a.producer ?? a.artist)) assetFor(a.asset_id, `assets[${n}].asset_id`);
    });

  const portfolioOf = (i: HandlerInput<OperationName>): StoredPortfolio => {
    const p = portfolios.get(clientOf(i), i.params.id!);
    if (!p) throw notFound('portfolio', i.params.id!);
    return p;
  };

  return {
    createToken: ({ body }) => tokens.issueForCredentials(body.client_id, body.client_secret),
    refreshToken: ({ body }) => tokens.refresh(body.refresh_token),

    createValuation: (i) => {
      const v = market.value(requestedAsset(i.body), ctxOf(i, i.body.currency));
      const stored: StoredValuation = { id: newId('val'), ...v };
      valuations.put(clientOf(i), stored.id, stored);
      return stored;
    },
    getValuation: (i) => {
      const v = valuations.get(clientOf(i), i.params.id!);
      if (!v) throw notFound('valuation', i.params.id!);
      const status = v.valid_until !== undefined && Date.parse(v.valid_until) <= i.now.getTime() ? 'expired' : 'valid';
      return {
        id: v.id,
        asset_id: v.asset_id,
        estimated_value: v.estimated_value,
        service_score: v.service_score,
        status,
        market_validated: v.market_validated,
        generated_at: v.generated_at,
        valid_until: v.valid_until,
      };
    },
    batchValuations: (i) => {
      const currency = batchCurrency(i.body.currency, i.body.assets);
      const ctx = ctxOf(i, currency);
      let total = 0;
      let allValidated = true;
      const items: BatchValuationItem[] = i.body.assets.map((a, n) => {
        const v = market.value(requestedAsset(a, `assets[${n}].asset_id`), ctx);
        total += v.estimated_value.mid;
        allValidated &&= v.market_validated;
        return {
          asset_id: v.asset_id,
          estimated_value: { mid: v.estimated_value.mid, currency: v.estimated_value.currency, low: v.estimated_value.low, high: v.estimated_value.high },
          service_score: v.service_score,
          confidence: v.confidence,
          momentum: v.momentum,
          data_points: v.data_points,
          valid_until: v.valid_until,
        };
      });
      return {
        batch_id: newId('batch'),
        count: items.length,
        valuations: items,
        total_value: roundCents(total),
        market_validated: allValidated,
        generated_at: i.now.toISOString(),
      };
    },

    createScore: (i) => ({ score: scoreOf(i.body, ctxOf(i)) }),
    scoreBreakdown: (i) => ({ breakdown: market.breakdown(assetFor(i.body.asset_id), ctxOf(i)) }),
    batchScores: (i) => {
      const ctx = ctxOf(i);
      const scores = i.body.assets.map((a, n) => scoreOf(a, ctx, `assets[${n}].asset_id`));
      return {
        batch_id: newId('batch'),
        count: scores.length,
        scores,
        market_validated: scores.every((s) => s.market_validated),
        generated_at: i.now.toISOString(),
      };
    },

    createProjection: (i) => {
      const horizons = [...new Set<Horizon>(i.body.horizons ?? [12, 24, 36])].sort((a, b) => a - b);
      const p = market.projection(assetFor(i.body.asset_id), i.body.current_value, horizons, ctxOf(i, i.body.currency));
      const projection: Projection = { id: newId('proj'), ...p };
      projections.put(clientOf(i), projection.id, projection);
      return { projection };
    },
    getProjection: (i) => {
      const projection = projections.get(clientOf(i), i.params.id!);
      if (!projection) throw notFound('projection', i.params.id!);
      return { projection };
    },

    signalsOverview: (i) => ({ signals: market.signalsOverview(ctxOf(i)) }),
    listAlerts: (i) => {
      const alerts = market.alerts(ctxOf(i));
      return { alerts, count: alerts.length, generated_at: i.now.toISOString() };
    },
    segmentSignals: (i) => market.segmentSignals(segmentParam(i.params.segment), ctxOf(i)),

    createPortfolio: (i) => {
      checkPurchaseDates(i.body.assets, i.now);
      checkItemIds(i.body.assets);
      const at = i.now.toISOString();
      const p: StoredPortfolio = { id: newId('port'), name: i.body.name, assets: i.body.assets, currency: i.body.currency ?? 'USD', created_at: at, updated_at: at };
      const summary = market.portfolioCreated(p, ctxOf(i, p.currency));
      portfolios.put(clientOf(i), p.id, p);
      return { portfolio: { id: p.id, name: p.name, ...summary, created_at: p.created_at } };
    },
    getPortfolio: (i) => {
      const p = portfolioOf(i);
      return { portfolio: market.portfolioAnalytics(p, ctxOf(i, p.currency)) };
    },
    updatePortfolio: (i) => {
      const old = portfolioOf(i);
      if (i.body.assets) {
        checkPurchaseDates(i.body.assets, i.now);
        checkItemIds(i.body.assets);
      }
      const p: StoredPortfolio = { ...old, name: i.body.name ?? old.name, assets: i.body.assets ?? old.assets, updated_at: i.now.toISOString() };
      const analytics = market.portfolioAnalytics(p, ctxOf(i, p.currency));
      portfolios.put(clientOf(i), p.id, p);
      return { portfolio: analytics };
    },
    portfolioPerformance: (i) => {
      const p = portfolioOf(i);
      return { performance: market.performance(p, ctxOf(i, p.currency)) };
    },

    analyseExit: (i) => ({
      exit_strategy: market.exitStrategy(assetFor(i.body.asset_id), i.body.current_value, i.body.urgency ?? 'flexible', ctxOf(i, i.body.currency)),
    }),
    exitChannels: (i) => {
      const raw = i.query.get('segment');
      const segment = raw === null ? undefined : segmentParam(raw);
      const channels = market.exitChannels(segment, ctxOf(i));
      return { channels, count: channels.length, generated_at: i.now.toISOString() };
    },

    listSegments: (i) => market.segmentList(ctxOf(i)),
    getSegment: (i) => ({ segment: market.segmentDetail(segmentParam(i.params.segment), ctxOf(i)) }),
  };

  function scoreOf(req: ParsedRequestOf<'createScore'>, ctx: MarketContext, field = 'asset_id') {
    if (req.asset_id !== undefined) return market.score(assetFor(req.asset_id, field), ctx);
    // The schema guarantees a segment when there is no asset_id.
    return market.score(toCanonical({ ...req, segment: req.segment! }), ctx);
  }
}

/** brand and model are guaranteed by the request schemas where an operation needs them. */
function toCanonical(d: AssetDescriptor): CanonicalAsset {
  const c = canonicalAsset(d);
  return { ...c, brand: c.brand ?? '', model: c.model ?? '' };
}

function clientOf(i: { caller: Caller | undefined }): string {
  if (!i.caller) throw new Error('an authenticated operation ran without a caller');
  return i.caller.account.clientId;
}

/** 404 on the field: the id is well formed but no asset of the service's has it; a few issued ids show what is allowed. */
function notIssued(id: string, field: string, examples: string[]): HttpError {
  return new HttpError('not_found', `${field} '${id.slice(0, 120)}' is not an asset id the service has issued`, { field, allowed_values: examples });
}

function notFound(kind: string, id: string): HttpError {
  return new HttpError('not_found', `no ${kind} with id '${id.slice(0, 80)}' exists for this account`);
}

/** A batch is valued in one currency: the top-level one, else the items' (which must agree), else USD. */
function batchCurrency(top: Currency | undefined, assets: readonly { currency?: Currency }[]): Currency {
  const chosen = top ?? assets.find((a) => a.currency !== undefined)?.currency ?? 'USD';
  const n = assets.findIndex((a) => a.currency !== undefined && a.currency !== chosen);
  if (n >= 0) throw validationError(`assets[${n}].currency`, `assets[${n}].currency must match the batch currency ${chosen}: a batch is valued in one currency`, [chosen]);
  return chosen;
}

/**
 * The schema checks purchase dates against this machine's clock; a sandbox started with its
 * own clock (`now`) checks them against that one too, so "today" means the sandbox's today.
 */
function checkPurchaseDates(assets: readonly { purchase_date: string }[], now: Date): void {
  assets.forEach((a, n) => {
    const problem = purchaseDateProblem(a.purchase_date, now);
    if (problem) throw validationError(`assets[${n}].purchase_date`, `assets[${n}].purchase_date ${a.purchase_date} ${problem}`);
  });
}

function roundCents(n: number): number {
  return Math.round(n * 100) / 100;
}
