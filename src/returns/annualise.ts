import { DAYS_PER_YEAR } from './money-weighted';

/**
 * A return over `days` days (in percent) as a yearly rate, actual/365 like the IRR:
 * (1 + R)^(365 / days) − 1. −100 % stays −100 %; null for a period of no days or no return.
 */
export function annualise(periodPercent: number | null, days: number): number | null {
  if (periodPercent === null || !Number.isFinite(periodPercent) || !(days > 0)) return null;
  if (periodPercent <= -100) return -100;
  return (Math.exp(Math.log1p(periodPercent / 100) * (DAYS_PER_YEAR / days)) - 1) * 100;
}
