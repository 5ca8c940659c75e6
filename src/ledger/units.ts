import { parseAssetId, sizePart, type SegmentId } from '../wire';
import { LEDGER_UNITS, type LedgerUnit } from './types';

/**
 * Units that mean what they say (issue 34). The service counts wine in cases of 12 × 75 cl (a
 * `size` of 75 cl or `bottle` makes the asset one bottle) and spirits in bottles; every other
 * segment in items that cannot be divided. A ledger row says which unit its quantity counts
 * (`unit`), so "12 bottles" is a case and not twelve. A wine's case and its bottles are one
 * stock, counted in bottles, so half a case can be sold and the rest held (and valued) as bottles.
 */

export const BOTTLES_PER_CASE = 12;
/** The size a wine's single bottle is asked for as (the service's `bottle` and `75cl` are the same factor). */
export const BOTTLE_SIZE = '75cl';

/** Quantities are decimals typed by people: within this of a whole number is whole. */
const WHOLE_TOLERANCE = 1e-9;

export function isWhole(n: number): boolean {
  return Math.abs(n - Math.round(n)) <= WHOLE_TOLERANCE * Math.max(1, Math.abs(n));
}

/** "case", "Cases", "BOTTLE", "bottles": the unit; anything else undefined (never guessed). */
export function parseUnit(text: string): LedgerUnit | undefined {
  const t = text.trim().toLowerCase().replace(/s$/, '');
  return (LEDGER_UNITS as readonly string[]).includes(t) ? (t as LedgerUnit) : undefined;
}

/** A size that names one standard bottle (75 cl): "75cl", "75 cl", "0.75 l", "750ml", "bottle". */
export function isBottleSize(size: string): boolean {
  return /^(75\s*cl|0[.,]75\s*l|750\s*ml|bottle)$/i.test(size.trim());
}

/** The asset id of one 75 cl bottle of the wine whose case is `caseId` (formatAssetId puts the size part last). */
export function bottleAssetId(caseId: string): string {
  return `${caseId}-${sizePart(BOTTLE_SIZE)}`;
}

/** What a row's quantity counts, once its segment, asset id, size and stated unit are read. */
export type RowUnits =
  | { unit?: LedgerUnit; stock?: { id: string; bottlesPerUnit: number }; assetId: string; size?: string }
  | { problem: { field: 'unit'; reason: string } };

/**
 * The unit a row's quantity counts and the asset it is valued as: a wine by the case or by the
 * 75 cl bottle is one stock (its key the case's asset id); a wine of another size (a magnum)
 * counts its own bottles; spirits count bottles; anything else counts items and has no unit.
 * `size` is the row's size cell; `assetId` the id its descriptors (or its asset_id cell) give.
 */
export function rowUnits(segment: SegmentId, assetId: string, size: string | undefined, stated: LedgerUnit | undefined): RowUnits {
  if (segment === 'wine') {
    const wine = caseOf(assetId, size);
    if (wine) {
      // No unit: the size says it (a bottle size: bottles; none: the service's unit, cases).
      const unit = stated ?? (wine.bottleSized ? 'bottle' : 'case');
      return unit === 'case'
        ? { unit, stock: { id: wine.caseId, bottlesPerUnit: BOTTLES_PER_CASE }, assetId: wine.caseId }
        : { unit, stock: { id: wine.caseId, bottlesPerUnit: 1 }, assetId: bottleAssetId(wine.caseId), size: BOTTLE_SIZE };
    }
    if (stated === 'case') {
      return { problem: { field: 'unit', reason: `a case is ${BOTTLES_PER_CASE} × 75 cl bottles; a row of size "${size}" counts its bottles: give unit bottle (or no unit) and the number of bottles` } };
    }
    return { unit: 'bottle', assetId, ...(size !== undefined ? { size } : {}) };
  }
  if (segment === 'spirits') {
    if (stated === 'case') {
      return { problem: { field: 'unit', reason: 'spirits are counted in bottles (a spirits case has no standard size: 6 or 12): give unit bottle and the number of bottles' } };
    }
    return { unit: 'bottle', assetId, ...(size !== undefined ? { size } : {}) };
  }
  if (stated !== undefined) {
    return { problem: { field: 'unit', reason: `unit (case or bottle) is for wine and spirits only; a ${segment} row's quantity counts items: leave unit empty` } };
  }
  return { assetId, ...(size !== undefined ? { size } : {}) };
}

/**
 * A wine by the case or by the 75 cl bottle: the case's asset id, and whether the row names the
 * bottle (by its size cell, or by its asset id's size part). Undefined for another size (a magnum).
 */
function caseOf(assetId: string, size: string | undefined): { caseId: string; bottleSized: boolean } | undefined {
  if (size !== undefined && !isBottleSize(size)) return undefined;
  const last = parseAssetId(assetId)?.extra.at(-1);
  const bottleParts = [sizePart(BOTTLE_SIZE), sizePart('bottle'), ...(size !== undefined ? [sizePart(size)] : [])];
  if (last !== undefined && bottleParts.includes(last)) return { caseId: assetId.slice(0, -(last.length + 1)), bottleSized: true };
  // Any other size part in the id is another bottle size, counted as itself.
  if (last !== undefined) return undefined;
  return { caseId: assetId, bottleSized: size !== undefined };
}

/** What one item of a segment is, for the refusal of a part of it: "a watch is one item". */
const ITEM: Record<SegmentId, string> = {
  watches: 'a watch',
  art: 'a work of art',
  wine: 'a bottle',
  sneakers: 'a pair of sneakers',
  bags: 'a bag',
  cards: 'a card',
  jewellery: 'a piece of jewellery',
  automobiles: 'a car',
  spirits: 'a bottle',
  real_estate: 'a property',
};

/**
 * Why a row's quantity cannot be held, or undefined when it can: a wine stock's quantity must
 * make whole bottles (0.5 of a case is 6), anything else must be whole items.
 */
export function partProblem(segment: SegmentId, quantity: number, units: { unit?: LedgerUnit; stock?: { bottlesPerUnit: number } }, name: string): string | undefined {
  if (units.stock) {
    const bottles = quantity * units.stock.bottlesPerUnit;
    if (isWhole(bottles)) return undefined;
    return units.unit === 'case'
      ? `${quantity} of a case of ${name} is ${round(bottles)} bottles: wine is held by the bottle, so a quantity in cases must make whole bottles (a case is ${BOTTLES_PER_CASE}: 0.5 is 6 bottles, 0.25 is 3)`
      : `${quantity} bottles of ${name}: a bottle cannot be divided; allowed: a whole number of bottles`;
  }
  if (isWhole(quantity)) return undefined;
  return `${quantity} of ${name}: ${ITEM[segment]} is one item and cannot be divided; allowed: a whole number${units.unit === 'bottle' ? ' of bottles' : ' of items'}`;
}

const round = (n: number) => String(Number(n.toPrecision(10)));
