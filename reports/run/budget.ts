import type { RateLimitStatus } from '../../src/client';
import { MAX_BATCH } from '../../src/wire';

export interface PortfolioNeed {
  name: string;
  holdings: number;
  valuationsToDo: number;
  /** Scores are asked for every holding that gets valued. */
  scoresToDo: number;
  enrichment: number;
}

export interface BudgetDecision {
  name: string;
  fits: boolean;
  needed: number;
  /** When it does not fit: the job-level problem printed in the report and on stderr. */
  message?: string;
}

export function requestsFor(n: PortfolioNeed): number {
  return Math.ceil(n.valuationsToDo / MAX_BATCH) + Math.ceil(n.scoresToDo / MAX_BATCH) + n.enrichment;
}

/**
 * Before any valuation is spent: which portfolios fit in what is left of the day's budget,
 * in order. One that does not fit is not started, and the message says how much would fit,
 * so the user can split the file or run after the reset.
 */
export function planBudget(needs: readonly PortfolioNeed[], status: Pick<RateLimitStatus, 'dayRemaining' | 'dayResetsAt'>, reserve = 0): BudgetDecision[] {
  let left = status.dayRemaining === undefined ? Infinity : status.dayRemaining - reserve;
  return needs.map((n) => {
    const needed = requestsFor(n);
    if (needed <= left) {
      left -= needed;
      return { name: n.name, fits: true, needed };
    }
    const available = Math.max(0, left);
    // Each 50 holdings cost one valuation and one score request; the enrichment can be left out.
    const holdingsThatFit = Math.min(n.valuationsToDo, Math.floor(available / 2) * MAX_BATCH);
    const reset = status.dayResetsAt ? ` (the budget resets at ${status.dayResetsAt.toISOString()})` : '';
    return {
      name: n.name,
      fits: false,
      needed,
      message:
        `Portfolio "${n.name}" was not valued: it needs about ${needed} requests but only ${available} remain in today's budget${reset}. ` +
        `About ${holdingsThatFit} of its ${n.valuationsToDo} holdings to value would fit; split the file or run again after the reset (with --resume).`,
    };
  });
}
