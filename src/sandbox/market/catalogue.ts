import { z } from 'zod';
import { SEGMENT_IDS, brandCode, formatAssetId, idComponent, segmentById, type SegmentId } from '../../wire';
import raw from './catalogue.json';
import { REFERENCE_DAY, dayText } from './calendar';
import { brandKey, modelTokens, referenceKey, words } from './normalise';

/**
 * The shipped reference catalogue: real-world assets with their market level in USD on the
 * reference day (catalogue.json). Loaded and indexed once per process.
 */
const EntrySchema = z.object({
  segment: z.enum(SEGMENT_IDS),
  brand: z.string().min(1),
  model: z.string().min(1),
  reference: z.string().min(1).optional(),
  year: z.number().int().optional(),
  size: z.string().optional(),
  price: z.number().positive(),
  aliases: z.array(z.string()).optional(),
});
const FileSchema = z.object({
  reference_day: z.string(),
  currency: z.literal('USD'),
  units: z.record(z.enum(SEGMENT_IDS), z.string()),
  brand_aliases: z.record(z.string(), z.array(z.string())),
  /** Typical price of one item by brands the catalogue lists no asset of: the fallback for their assets. */
  brand_levels: z.record(z.enum(SEGMENT_IDS), z.record(z.string(), z.number().positive())),
  assets: z.array(EntrySchema),
});

export type CatalogueEntry = z.infer<typeof EntrySchema>;

export interface KnownAsset extends CatalogueEntry {
  asset_id: string;
  /** SVC-code-brand-ref without year or size: the part of an id that names the model. */
  modelKey: string;
  /** Position in the file: earlier entries are the flagship when a request is vague. */
  order: number;
  unit: string;
  refKey: string;
  tokens: Set<string>;
  /** The model's words, lower case, space-joined: for exact matches. */
  modelNorm: string;
  /** Whether another entry of the same brand has the same model text (Daytona 116500LN and 126500LN). */
  sharedModel: boolean;
}

export interface BrandInfo {
  segment: SegmentId;
  name: string;
  code: string;
  entries: KnownAsset[];
  medianPrice: number;
}

export interface Catalogue {
  assets: KnownAsset[];
  bySegment: Record<SegmentId, KnownAsset[]>;
  byId: Map<string, KnownAsset>;
  byModelKey: Map<string, KnownAsset[]>;
  /** `${segment}:${brandKey}` for names and aliases. */
  brandsByKey: Map<string, BrandInfo>;
  /** `${segment}:${brandCode}`: how an asset id names a brand (listed brands and brand levels). */
  brandsByCode: Map<string, BrandInfo>;
  /** Every brand of a segment the model knows a level for; listed ones first. */
  brands: Record<SegmentId, BrandInfo[]>;
  segmentMedian: Record<SegmentId, number>;
  units: Record<SegmentId, string>;
}

export function modelKeyOf(segment: SegmentId, brand: string, ref: string): string {
  return `SVC-${segmentById(segment)!.code}-${brand}-${ref}`;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function build(): Catalogue {
  const file = FileSchema.parse(raw);
  // Prices are trend levels on the model's reference day; a file quoting another day would be misread.
  if (file.reference_day !== dayText(REFERENCE_DAY)) throw new Error(`catalogue.json quotes ${file.reference_day}, the model's reference day is ${dayText(REFERENCE_DAY)}`);
  const bySegment = Object.fromEntries(SEGMENT_IDS.map((s) => [s, [] as KnownAsset[]])) as Record<SegmentId, KnownAsset[]>;
  const byId = new Map<string, KnownAsset>();
  const byModelKey = new Map<string, KnownAsset[]>();
  const brandsByKey = new Map<string, BrandInfo>();
  const brandsByCode = new Map<string, BrandInfo>();
  const brands = Object.fromEntries(SEGMENT_IDS.map((s) => [s, [] as BrandInfo[]])) as Record<SegmentId, BrandInfo[]>;
  const assets: KnownAsset[] = [];

  file.assets.forEach((e, order) => {
    const asset_id = formatAssetId({ segment: e.segment, brand: e.brand, model: e.model, reference: e.reference, year: e.year, size: e.size });
    if (byId.has(asset_id)) throw new Error(`catalogue.json: duplicate asset id ${asset_id}`);
    const ref = idComponent(e.reference ?? '') || idComponent(e.model, 16) || 'NA';
    const code = brandCode(e.brand);
    const tokens = modelTokens([e.model, e.reference ?? '', ...(e.aliases ?? [])].join(' '), e.brand);
    if (e.reference) {
      tokens.add(referenceKey(e.reference).toLowerCase());
      for (const w of words(e.reference)) tokens.add(w);
    }
    const known: KnownAsset = {
      ...e,
      asset_id,
      modelKey: modelKeyOf(e.segment, code, ref),
      order,
      unit: file.units[e.segment] ?? 'item',
      refKey: e.reference ? referenceKey(e.reference) : '',
      tokens,
      modelNorm: words(e.model).join(' '),
      sharedModel: false,
    };
    assets.push(known);
    bySegment[e.segment].push(known);
    byId.set(asset_id, known);
    const same = byModelKey.get(known.modelKey);
    if (same) same.push(known);
    else byModelKey.set(known.modelKey, [known]);

    let info = brandsByCode.get(`${e.segment}:${code}`);
    if (!info) {
      info = { segment: e.segment, name: e.brand, code, entries: [], medianPrice: 0 };
      brandsByCode.set(`${e.segment}:${code}`, info);
      brands[e.segment].push(info);
      for (const name of [e.brand, ...(file.brand_aliases[e.brand] ?? [])]) brandsByKey.set(`${e.segment}:${brandKey(name)}`, info);
    } else if (info.name !== e.brand) {
      throw new Error(`catalogue.json: brands '${info.name}' and '${e.brand}' share the code ${code} in ${e.segment}`);
    }
    info.entries.push(known);
  });

  for (const [segment, levels] of Object.entries(file.brand_levels) as [SegmentId, Record<string, number>][]) {
    for (const [name, level] of Object.entries(levels)) {
      const code = brandCode(name);
      const clash = brandsByCode.get(`${segment}:${code}`);
      if (clash) throw new Error(`catalogue.json: brand level '${name}' shares the code ${code} with '${clash.name}' in ${segment}`);
      const info: BrandInfo = { segment, name, code, entries: [], medianPrice: level };
      brandsByCode.set(`${segment}:${code}`, info);
      brands[segment].push(info);
      for (const alias of [name, ...(file.brand_aliases[name] ?? [])]) brandsByKey.set(`${segment}:${brandKey(alias)}`, info);
    }
  }
  for (const list of brandsByCode.values()) {
    for (const e of list.entries) e.sharedModel = list.entries.some((o) => o !== e && o.modelNorm === e.modelNorm);
  }
  const segmentMedian = {} as Record<SegmentId, number>;
  for (const s of SEGMENT_IDS) {
    segmentMedian[s] = median(bySegment[s].map((a) => a.price));
    for (const b of brands[s]) if (b.entries.length > 0) b.medianPrice = median(b.entries.map((a) => a.price));
  }
  return { assets, bySegment, byId, byModelKey, brandsByKey, brandsByCode, brands, segmentMedian, units: file.units as Record<SegmentId, string> };
}

let loaded: Catalogue | undefined;

/** The catalogue, parsed and indexed on first use. */
export function catalogue(): Catalogue {
  loaded ??= build();
  return loaded;
}

/**
 * A model as a list shows it: unambiguous, so that valuing the brand and this model finds the
 * same asset ("Cosmograph Daytona 126500LN", "Lafite Rothschild 2016").
 */
export function displayModel(a: KnownAsset): string {
  if (!a.sharedModel) return a.model;
  if (a.reference) return `${a.model} ${a.reference}`;
  return a.year !== undefined ? `${a.model} ${a.year}` : a.model;
}
