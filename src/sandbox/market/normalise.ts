import { idComponent } from '../../wire';

/**
 * Forgiving text keys for matching requests to the catalogue: case, accents, punctuation and
 * filler words do not matter ("Château Lafite-Rothschild" = "lafite rothschild").
 */

const BRAND_FILLER = new Set(['chateau', 'domaine', 'maison', 'the', 'de', 'du', 'des', 'la', 'le', 'les', 'l', 'd', 'et', 'and', 'co', 'company', 'sa', 'ag', 'ltd', 'inc', 'estate', 'estates', 'winery', 'distillery', 'of']);

/** Words that say nothing about which model is meant. */
const MODEL_FILLER = new Set([
  'the', 'de', 'du', 'des', 'la', 'le', 'les', 'l', 'd', 'and', 'et', 'of', 'a', 'ref', 'reference', 'no', 'model',
  'grand', 'vin', 'cru', 'crus', 'classe', 'premier', 'premiers', '1er', 'first', 'growth', 'wine', 'red', 'rouge',
  'case', 'bottle', 'bottles', 'cl', '75cl', '70cl', 'x', 'chateau', 'domaine', 'watch', 'bag', 'handbag',
  // Appellations say where a wine is from, not which wine of the producer it is.
  'pauillac', 'pomerol', 'sauternes', 'bordeaux', 'bourgogne', 'burgundy', 'medoc', 'graves', 'pessac', 'leognan',
  'saint', 'st', 'emilion', 'julien', 'estephe', 'napa', 'valley', 'aoc', 'doc', 'docg',
]);

export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** "Château Lafite Rothschild" -> "lafiterothschild". */
export function brandKey(text: string): string {
  const kept = words(text).filter((w) => !BRAND_FILLER.has(w));
  return (kept.length > 0 ? kept : words(text)).join('');
}

/** Distinctive lower-case tokens of a model description, without filler and the brand's own words. */
export function modelTokens(text: string, brand = ''): Set<string> {
  const brandWords = new Set(words(brand));
  return new Set(words(text).filter((w) => !MODEL_FILLER.has(w) && !brandWords.has(w)));
}

/** "5711/1A-010" -> "57111A010": references compare without punctuation. */
export function referenceKey(text: string): string {
  return idComponent(text, 64);
}
