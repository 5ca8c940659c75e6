import type { Currency } from '../wire';
import type { PortfolioInput } from './types';

/** The report currency: the one asked for; else the holdings' own when they all agree; else USD. */
export function reportCurrency(portfolios: readonly PortfolioInput[], asked: Currency | undefined): Currency {
  if (asked) return asked;
  const seen = new Set(portfolios.flatMap((p) => p.holdings.map((h) => h.currency)).filter((c): c is Currency => c !== undefined));
  return seen.size === 1 ? [...seen][0]! : 'USD';
}

/**
 * Holdings bought in another currency than the report's cannot be compared with their value
 * without an exchange rate we do not have: they become row problems that say what to do.
 */
export function requireCurrency(portfolios: PortfolioInput[], currency: Currency): void {
  for (const p of portfolios) {
    const keep = [];
    for (const h of p.holdings) {
      if (h.currency === undefined || h.currency === currency) keep.push(h);
      else
        p.problems.push({
          portfolio: p.name,
          file: h.source.file,
          sheet: h.source.sheet,
          row: h.source.row,
          field: 'currency',
          value: h.currency,
          reason: `currency ${h.currency} differs from the report currency ${currency}: convert purchase_price to ${currency}, or run with --currency ${h.currency}`,
        });
    }
    p.holdings = keep;
  }
}
