import { createHash } from 'node:crypto';
import { slugify } from '../writers/safe-path';

/**
 * "rpt_2026-10-31_okafor-household_3f9a1c2b": the same portfolio and holdings as of the same
 * day always get the same id, so a resumed run's reports are identical to an uninterrupted one's.
 */
export function reportId(portfolio: string, asOf: string, content: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify([portfolio, asOf, content])).digest('hex').slice(0, 8);
  return `rpt_${asOf}_${slugify(portfolio).slice(0, 40)}_${hash}`;
}
