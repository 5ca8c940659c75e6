import { canonicalAsset, formatAssetId, parseAssetId, segmentById, sizePart, type AssetDescriptor, type CanonicalAsset, type SegmentId } from '../../wire';
import type { MarketAsset } from './market';
import { catalogue, modelKeyOf, type BrandInfo, type KnownAsset } from './catalogue';
import { brandKey, modelTokens, referenceKey, words } from './normalise';
import { hash32 } from './random';

/**
 * Which asset a request describes. A request that names a catalogue asset (however it is
 * spelt) gets that asset's id; anything else gets the id its own fields spell, and is valued
 * by brand or segment. Everything downstream is a function of the id, so the same asset has
 * the same numbers in every operation.
 */

const MIN_MATCH = 0.6;

export function findBrand(segment: SegmentId, name: string): BrandInfo | undefined {
  const cat = catalogue();
  const key = brandKey(name);
  const exact = cat.brandsByKey.get(`${segment}:${key}`);
  if (exact) return exact;
  if (key.length < 4) return undefined;
  let best: BrandInfo | undefined;
  let bestLen = 0;
  for (const b of cat.brands[segment]) {
    const bk = brandKey(b.name);
    if (bk.length >= 4 && (bk.includes(key) || key.includes(bk)) && bk.length > bestLen) {
      best = b;
      bestLen = bk.length;
    }
  }
  return best;
}

function byReference(entries: KnownAsset[], reference: string): KnownAsset | undefined {
  const r = referenceKey(reference);
  let best: KnownAsset | undefined;
  let bestRank = -1;
  for (const e of entries) {
    if (!e.refKey) continue;
    let rank = -1;
    if (e.refKey === r) rank = 1000;
    else if (r.length >= 4 && e.refKey.length >= 4 && (r.startsWith(e.refKey) || e.refKey.startsWith(r))) rank = Math.min(e.refKey.length, r.length);
    if (rank > bestRank) {
      best = e;
      bestRank = rank;
    }
  }
  return best;
}

/** Four-digit years written into a model ("Lafite 2010"): a vintage or year, not a model word. */
function yearIn(tokens: Set<string>): number | undefined {
  for (const t of tokens) if (/^(18|19|20)\d\d$/.test(t)) return Number(t);
  return undefined;
}

/** Digit runs of a text's tokens, without leading zeros: "2ct" -> 2, "#057" -> 57, "3.8" -> 3 and 8. */
function numbersIn(tokens: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) for (const n of t.match(/\d+/g) ?? []) out.add(String(Number(n)));
  return out;
}

const ROMAN = /^(i|ii|iii|iv|v|vi|vii|viii|ix|x|xi|xii)$/;

/**
 * Words that tell one model from its neighbours agree: the request's numbers, single letters and
 * roman numerals are the entry's (911 vs 993, 21 vs 25 Year Old), and a letter suffix the entry's
 * name puts after a number is the request's too ("Miura P400" is neither the P400 S nor the SV).
 */
function identifiersAgree(wanted: Set<string>, e: KnownAsset): boolean {
  const theirs = numbersIn(e.tokens);
  for (const n of numbersIn(wanted)) if (!theirs.has(n)) return false;
  for (const t of wanted) if ((t.length === 1 || ROMAN.test(t)) && !/\d/.test(t) && !e.tokens.has(t)) return false;
  const name = words(e.model.replace(/\([^)]*\)/g, ' '));
  for (let i = 1; i < name.length; i++) {
    if (/\d/.test(name[i - 1]!) && /^[a-z]{1,2}$/.test(name[i]!) && wanted.has(name[i - 1]!) && !wanted.has(name[i]!)) return false;
  }
  return true;
}

/**
 * A request word that is not this entry's but belongs to a sibling the request could also be
 * ("Charizard" against Blastoise, when a Charizard of those numbers is listed) says it is that
 * sibling or an unlisted one, not this entry. Siblings ruled out by their numbers do not count
 * ("Bandoulière" names the Keepall 54, which a Speedy 30 is not).
 */
function contradicted(wanted: Set<string>, e: KnownAsset, entries: readonly KnownAsset[]): boolean {
  for (const t of wanted) {
    if (e.tokens.has(t)) continue;
    if (entries.some((o) => o !== e && o.tokens.has(t) && identifiersAgree(wanted, o))) return true;
  }
  return false;
}

const coreTokens = new WeakMap<KnownAsset, Set<string>>();

/** An entry's own model words outside parentheses: its name, without the qualifiers "(signed screenprint)". */
function core(e: KnownAsset): Set<string> {
  let t = coreTokens.get(e);
  if (!t) {
    t = modelTokens(e.model.replace(/\([^)]*\)/g, ' '), e.brand);
    coreTokens.set(e, t);
  }
  return t;
}

const WORD = /^[a-z]{2,}$/;

/**
 * A word of the request the entry lacks while the entry's name has a word the request lacks
 * ("Venusaur" for "Blastoise") is another asset with a similar description, not this one.
 * Numbers are left to identifiersAgree; extra words on one side only (a colour, a qualifier) are fine.
 */
function substituted(wanted: Set<string>, e: KnownAsset): boolean {
  let extra = false;
  for (const t of wanted) if (WORD.test(t) && !e.tokens.has(t)) extra = true;
  if (!extra) return false;
  for (const t of core(e)) if (WORD.test(t) && !wanted.has(t)) return true;
  return false;
}

/**
 * The entry a model text names, if the match is good: the catalogue's own text; or most of the
 * request's words (MIN_MATCH), every number and letter designation it gives, no word that
 * names a sibling and no name swapped for another. Anything weaker is not this catalogue asset: it is valued by its brand, with
 * low confidence and market_validated false (docs/decisions.md).
 */
function byModel(entries: KnownAsset[], model: string, brand: string, size?: string): KnownAsset | 'vague' | undefined {
  // A model text that spells out a reference ("Daytona 116500 LN") names that entry.
  const compact = referenceKey(model);
  let spelled: KnownAsset | undefined;
  for (const e of entries) if (e.refKey.length >= 4 && compact.includes(e.refKey) && e.refKey.length > (spelled?.refKey.length ?? 0)) spelled = e;
  if (spelled) return spelled;
  const wanted = modelTokens(model, brand);
  const year = yearIn(wanted);
  if (year !== undefined) wanted.delete(String(year));
  const prefer = (list: KnownAsset[]) =>
    list.find((e) => year !== undefined && e.year === year) ?? list.find((e) => size !== undefined && e.size === size) ?? list[0];
  // The catalogue's own model text, as a list shows it, is an exact match.
  const norm = words(model).filter((w) => w !== String(year)).join(' ');
  const exact = entries.filter((e) => e.modelNorm === norm);
  if (exact.length > 0) return prefer(exact);
  if (wanted.size === 0) return year !== undefined ? (prefer(entries.filter((e) => e.year === year)) ?? 'vague') : 'vague';
  let best: KnownAsset | undefined;
  let bestCover = 0;
  let bestSpecific = 0;
  for (const e of entries) {
    let hit = 0;
    for (const t of wanted) if (e.tokens.has(t)) hit++;
    const cover = hit / wanted.size;
    if (cover < MIN_MATCH || !identifiersAgree(wanted, e) || contradicted(wanted, e, entries) || substituted(wanted, e)) continue;
    // Among equally good matches prefer the most specific entry, then the one of the asked year or size.
    const specific =
      hit / Math.max(1, e.tokens.size) + (size !== undefined && e.size === size ? 0.5 : 0) + (year !== undefined && e.year === year ? 0.5 : 0);
    if (cover > bestCover || (cover === bestCover && specific > bestSpecific)) {
      best = e;
      bestCover = cover;
      bestSpecific = specific;
    }
  }
  return best;
}

export function matchCatalogue(asset: Pick<CanonicalAsset, 'segment' | 'brand' | 'model' | 'reference' | 'size'>): { brand?: BrandInfo; entry?: KnownAsset } {
  const brand = findBrand(asset.segment, asset.brand);
  if (!brand) return {};
  const entries = brand.entries;
  if (asset.reference) {
    const hit = byReference(entries, asset.reference);
    if (hit) return { brand, entry: hit };
    // A reference we do not list is another model, unless the model names an unreferenced entry.
    const m = byModel(entries.filter((e) => !e.refKey), asset.model, asset.brand, asset.size);
    return { brand, entry: m === 'vague' || m === undefined ? undefined : m };
  }
  const m = byModel(entries, asset.model, asset.brand, asset.size);
  // A bare producer or maker ("Château Lafite Rothschild", no wine named) means its flagship.
  return { brand, entry: m === 'vague' ? entries[0] : m };
}

/**
 * A request whose brand and model are an id's own parts (a client that read an id back into
 * descriptors: brand "CHALAFROT", model "LAFITEROTHSCHILD") names that id when it is a catalogue
 * model that the descriptors did not match otherwise, instead of being read as a brand called
 * CHALAFROT (whose code would be cut to CHALAFRO).
 */
function idSpeltAsDescriptors(asset: CanonicalAsset): string | undefined {
  const code = /^[A-Z0-9]+$/;
  if (!code.test(asset.brand) || !code.test(asset.model) || (asset.reference !== undefined && asset.reference !== asset.model)) return undefined;
  const parts = [`SVC-${segmentById(asset.segment)!.code}-${asset.brand}-${asset.model}`];
  if (asset.year !== undefined) parts.push(String(asset.year));
  if (asset.size !== undefined) parts.push(sizePart(asset.size));
  const id = parts.join('-');
  return readAssetId(id)?.catalogued ? id : undefined;
}

export function assetIdFor(asset: CanonicalAsset): string {
  const { brand, entry } = matchCatalogue(asset);
  if (entry) {
    return formatAssetId({
      segment: entry.segment,
      brand: entry.brand,
      model: entry.model,
      reference: entry.reference,
      year: asset.year ?? entry.year,
      size: asset.size ?? entry.size,
    });
  }
  const spelt = idSpeltAsDescriptors(asset);
  if (spelt) return spelt;
  const own = formatAssetId({
    segment: asset.segment,
    brand: brand?.name ?? asset.brand,
    model: asset.model,
    reference: asset.reference,
    year: asset.year,
    size: asset.size,
  });
  // Model words are cut to 16 letters in an id, so "Abstraktes Bild (P16)" would spell the catalogue's
  // "Abstraktes Bild (P15)": a description that did not match gets a part of its own instead.
  return readAssetId(own)?.catalogued ? `${own}-${distinctPart(asset)}` : own;
}

/** "D" and a hash of the description: marks an id as a described asset, not the catalogue model its other parts spell. */
function distinctPart(asset: Pick<CanonicalAsset, 'model' | 'reference'>): string {
  const text = [...words(asset.model), '|', ...words(asset.reference ?? '')].join(' ');
  return 'D' + hash32(text).toString(36).toUpperCase().padStart(7, '0');
}

/** Whether an id carries a distinct-description part (see assetIdFor). */
export function isDescribed(extra: readonly string[]): boolean {
  return extra.some((e) => /^D[0-9A-Z]{7}$/.test(e));
}

/** "S10P5" in an id -> "10.5". */
export function sizeFromIdPart(part: string): string {
  return part.slice(1).replace(/(\d)P(\d)/g, '$1.$2');
}

/** A brand code read back as a name whose brand code is the same code ("SOMNEWBRA" -> "SOM NEW BRA"). */
function brandNameFromCode(code: string): string {
  if (code.length <= 8) return code;
  return code.match(/.{1,3}/g)!.join(' ');
}

/**
 * What an asset id stands for, read from the id and the catalogue alone (no state, so the same
 * id reads the same in every process and after a restart):
 * - `identity`: the descriptors to echo (catalogue names where the catalogue knows the model);
 * - `valuedAs`: the id whose profile prices it. That is the id itself, except for an id that
 *   spells a catalogue asset another way (a brand alias such as PATEK, a longer reference such
 *   as 57111A010), which is priced as that catalogue asset and still answered under its own id.
 * Ids are never re-derived from these descriptors: an answer for an id carries that id.
 */
export interface IdReading {
  identity: Omit<CanonicalAsset, 'quantity'>;
  valuedAs: string;
  /** Whether the model (the id minus year and size) is a catalogue model. */
  catalogued: boolean;
}

function entryIdentity(e: KnownAsset, year: number | undefined, size: string | undefined): Omit<CanonicalAsset, 'quantity'> {
  return { segment: e.segment, brand: e.brand, model: e.model, reference: e.reference, year: year ?? e.year, size: size ?? e.size };
}

/** The family member an id's year names: that year's entry, else the nearest year, else the first. */
export function familyEntry(family: readonly KnownAsset[], year: number | undefined): KnownAsset {
  if (year === undefined) return family[0]!;
  const same = family.find((e) => e.year === year);
  if (same) return same;
  if (!family.some((e) => e.year !== undefined)) return family[0]!;
  return [...family].sort((a, b) => Math.abs(a.year! - year) - Math.abs(b.year! - year))[0]!;
}

/** The brand an id's brand code names: its own code, or a brand alias spelt as a code (PATEK). */
export function brandForCode(segment: SegmentId, code: string): BrandInfo | undefined {
  const cat = catalogue();
  return cat.brandsByCode.get(`${segment}:${code}`) ?? cat.brandsByKey.get(`${segment}:${brandKey(code)}`);
}

export function readAssetId(assetId: string): IdReading | undefined {
  const parts = parseAssetId(assetId);
  if (!parts) return undefined;
  const cat = catalogue();
  const sizePart = parts.extra.find((e) => e.startsWith('S'));
  const size = sizePart ? sizeFromIdPart(sizePart) : undefined;
  const described = isDescribed(parts.extra);
  const family = described ? undefined : cat.byModelKey.get(modelKeyOf(parts.segment, parts.brand, parts.ref));
  if (family) return { identity: entryIdentity(familyEntry(family, parts.year), parts.year, size), valuedAs: assetId, catalogued: true };
  const brand = brandForCode(parts.segment, parts.brand);
  // Only a reference can name a catalogue asset from inside an id: model words were cut to 16 letters.
  const hit = brand && !described ? byReference(brand.entries, parts.ref) : undefined;
  if (hit) {
    const identity = entryIdentity(hit, parts.year, size);
    return { identity, valuedAs: formatAssetId(identity), catalogued: true };
  }
  return {
    identity: { segment: parts.segment, brand: brand?.name ?? brandNameFromCode(parts.brand), model: parts.ref, year: parts.year, size },
    valuedAs: assetId,
    catalogued: false,
  };
}

/**
 * An asset asked for by id with the particulars the request gives (condition, box and papers,
 * quantity, medium, an artwork's size): the id names the asset, the request describes the holding.
 */
export function withParticulars(byId: MarketAsset, request: AssetDescriptor): MarketAsset {
  const d = canonicalAsset(request);
  return { ...byId, condition: d.condition, box_papers: d.box_papers, quantity: d.quantity, medium: d.medium, size_cm: d.size_cm };
}
