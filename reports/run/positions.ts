import { largest } from './largest';

/** One asset held on one or more lines of a portfolio: the lines (input positions, in input order) and their value together. */
export interface Position {
  asset_id: string;
  lines: number[];
  value: number;
}

/**
 * The lines grouped by asset id, in the order each asset first appears. Identical lines are one
 * position before anything is cut to "the largest": cut first, three identical lines of which
 * two made the cut showed as one row holding two of the three (issue 27).
 */
export function groupPositions(lines: Iterable<number>, assetId: (line: number) => string, value: (line: number) => number): Position[] {
  const byAsset = new Map<string, Position>();
  for (const line of lines) {
    const id = assetId(line);
    const p = byAsset.get(id);
    if (p) {
      p.lines.push(line);
      p.value += value(line);
    } else byAsset.set(id, { asset_id: id, lines: [line], value: value(line) });
  }
  return [...byAsset.values()];
}

/** The `n` positions of largest value (all their lines together), largest first; ties keep the earlier position first. */
export function largestPositions(positions: readonly Position[], n: number): Position[] {
  return largest(
    positions.map((_, k) => k),
    n,
    (k) => positions[k]!.value,
  ).map((k) => positions[k]!);
}
