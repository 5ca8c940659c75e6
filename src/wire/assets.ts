import { z } from 'zod';
import { ConditionSchema, CurrencySchema, MoneyIn, PlainText, PurchaseDate, SegmentIdSchema, plainString } from './primitives';
import type { SegmentId } from './segments';

const Text = PlainText;
const Year = z.number().int().min(1600).max(2100);

/**
 * Everything that can describe an asset, across segments. The spec names brand, model,
 * reference, year, condition, box_papers and size for goods; producer, vintage and
 * quantity for wine; artist, title, medium and size_cm for art. Which of them an
 * operation requires is checked by that operation (see requireMakerAndModel).
 */
export const AssetDescriptorFields = {
  segment: SegmentIdSchema,
  brand: Text(100).optional(),
  model: Text(200).optional(),
  reference: Text(64).optional(),
  year: Year.optional(),
  condition: ConditionSchema.optional(),
  box_papers: z.boolean().optional(),
  size: Text(32).optional(),
  quantity: z.number().int().min(1).max(100_000).optional(),
  producer: Text(100).optional(),
  vintage: Year.optional(),
  artist: Text(100).optional(),
  title: Text(200).optional(),
  medium: Text(100).optional(),
  size_cm: z.object({ width: z.number().positive().max(10_000), height: z.number().positive().max(10_000) }).optional(),
};

export const AssetDescriptor = z.object(AssetDescriptorFields);
export type AssetDescriptor = z.infer<typeof AssetDescriptor>;

/** The canonical form every model works on: maker in brand, work in model, year of make or vintage in year. */
export interface CanonicalAsset {
  segment: SegmentId;
  brand: string;
  model: string;
  reference?: string;
  year?: number;
  condition?: z.infer<typeof ConditionSchema>;
  box_papers?: boolean;
  size?: string;
  quantity: number;
  medium?: string;
  size_cm?: { width: number; height: number };
}

/** Folds the segment aliases (producer, artist, title, vintage) into brand, model and year. */
export function canonicalAsset(a: AssetDescriptor): Omit<CanonicalAsset, 'brand' | 'model'> & { brand?: string; model?: string } {
  return {
    segment: a.segment,
    brand: a.brand ?? a.producer ?? a.artist,
    model: a.model ?? a.title,
    reference: a.reference,
    year: a.year ?? a.vintage,
    condition: a.condition,
    box_papers: a.box_papers,
    size: a.size,
    quantity: a.quantity ?? 1,
    medium: a.medium,
    size_cm: a.size_cm,
  };
}

type Ctx = z.RefinementCtx;
function requireField(ok: boolean, ctx: Ctx, path: string, message: string) {
  if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
}

/** Valuations need a maker and a model (spec: brand and model required; artist/producer and title count). */
export function requireMakerAndModel(a: AssetDescriptor, ctx: Ctx) {
  requireField(!!(a.brand ?? a.producer ?? a.artist), ctx, 'brand', 'brand is required (or producer for wine, artist for art)');
  requireField(!!(a.model ?? a.title), ctx, 'model', 'model is required (or title for art)');
}

/** Scores and portfolio items need at least a maker (unless they name an asset_id). */
export function requireMaker(a: AssetDescriptor, ctx: Ctx) {
  requireField(!!(a.brand ?? a.producer ?? a.artist), ctx, 'brand', 'brand is required (or producer for wine, artist for art)');
}

export const ValuationRequest = AssetDescriptor.extend({
  /** Ours: the currency to value in; USD when absent (docs/decisions.md). */
  currency: CurrencySchema.optional(),
  /** Ours: value the asset an id names (an id the service issued); brand and model may then be left out (docs/decisions.md). */
  asset_id: z.string().min(1).max(120).optional(),
}).superRefine((a, ctx) => {
  if (a.asset_id === undefined) requireMakerAndModel(a, ctx);
});
export type ValuationRequest = z.input<typeof ValuationRequest>;

export const PortfolioAssetInput = AssetDescriptor.extend({
  asset_id: plainString().max(120).optional(),
  purchase_price: MoneyIn,
  purchase_date: PurchaseDate,
}).superRefine((a, ctx) => {
  // An item naming an asset_id is that asset: the id stands in for the maker (docs/decisions.md).
  if (a.asset_id === undefined) requireMaker(a, ctx);
});
export type PortfolioAssetInput = z.input<typeof PortfolioAssetInput>;
