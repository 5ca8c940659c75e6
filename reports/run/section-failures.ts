import type { Section } from '../report-data';
import type { PortfolioResults } from './results';

const SECTION_NAMES = { performance: 'performance against benchmarks', projections: 'projections', exits: 'exit analysis' } as const;

/**
 * The sections of a portfolio's report left out because the service failed (not because the
 * tier lacks them), each as a sentence for stderr naming the portfolio and the section: such a
 * run ends with exit 3, as one with holdings not valued does.
 */
export function sectionsLeftOut(portfolio: string, results: Pick<PortfolioResults, 'performance' | 'projections' | 'exits'>): string[] {
  return (Object.keys(SECTION_NAMES) as (keyof typeof SECTION_NAMES)[]).flatMap((key) => leftOut(portfolio, SECTION_NAMES[key], results[key]));
}

export function leftOut(portfolio: string, section: string, s: Section<unknown>): string[] {
  if (s.included || !s.failed) return [];
  return [`"${portfolio}": its ${section} section is left out of its report because the service failed (${s.note.replace(/^Omitted: /, '').replace(/\.$/, '')}); run the same command again later to include it.`];
}
