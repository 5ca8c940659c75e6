import { z } from 'zod';
import { CalendarDate } from './primitives';

/**
 * The add-in host's performance endpoint (issue 34): GET /addin/performance?portfolio=…&period=…
 * &measure=… answers a portfolio's return over a standard period at its latest recorded
 * month-end, computed by the report's own engine (src/performance periodsFromHistory) from the
 * firm's history database. Defined once: the host answers it, SVC.PERFORMANCE reads it.
 */
export const PERFORMANCE_PATH = '/addin/performance';

/**
 * The standard periods, as the report's performance section names them (src/performance
 * PERIOD_KEYS). Spelt here because the wire imports nothing outside itself; the host checks at
 * compile time that the two lists are one (addin/server/performance.ts).
 */
export const PERFORMANCE_PERIODS = ['mtd', 'qtd', 'ytd', '1y', '3y', 'since_inception'] as const;
export type PerformancePeriod = (typeof PERFORMANCE_PERIODS)[number];
/** Time-weighted (the default) or money-weighted. */
export const PERFORMANCE_MEASURES = ['twr', 'mwr'] as const;
export type PerformanceMeasure = (typeof PERFORMANCE_MEASURES)[number];

const oneOf = <T extends readonly [string, ...string[]]>(name: string, allowed: T) => z.enum(allowed, { error: `one of ${allowed.join(', ')}` }).describe(name);

export const PortfolioPerformanceQuery = z.object({
  portfolio: z.string().trim().min(1, "a portfolio's name").max(200),
  period: oneOf('period', PERFORMANCE_PERIODS),
  measure: oneOf('measure', PERFORMANCE_MEASURES).default('twr'),
});
export type PortfolioPerformanceQuery = z.input<typeof PortfolioPerformanceQuery>;

export const PortfolioPerformanceResponse = z.object({
  portfolio: z.string(),
  period: z.enum(PERFORMANCE_PERIODS),
  measure: z.enum(PERFORMANCE_MEASURES),
  /** The portfolio's latest recorded month-end: every period ends there. */
  as_of: CalendarDate,
  from: CalendarDate,
  /** The return in percent units (12.5 is 12.5 %), as the report's JSON gives it. */
  percent: z.number().finite(),
  /** Longer than a year: a yearly rate. */
  annualised: z.boolean(),
  /** The currency of the month-end values the return is computed over. */
  currency: z.string().regex(/^[A-Z]{3}$/),
});
export type PortfolioPerformanceResponse = z.infer<typeof PortfolioPerformanceResponse>;

/** The error types the endpoint answers besides the history route's (no database, not allowed). */
export const PERFORMANCE_ERRORS = {
  /** The history does not cover the period (or the measure is not defined over it): 404 with the report's reason. */
  notCovered: 'period_not_covered',
} as const;
