import { InputError, type PortfolioInput } from './types';
import { englishReason, rowReason } from './row-reasons';

/** The report currency: the one asked for; else the holdings' own when they all agree; else USD. */
export function reportCurrency(portfolios: readonly PortfolioInput[], asked: string | undefined): string {
  if (asked) return asked;
  const seen = new Set(portfolios.flatMap((p) => p.holdings.map((h) => h.currency)).filter((c): c is string => c !== undefined));
  return seen.size === 1 ? [...seen][0]! : 'USD';
}

/**
 * Holdings bought in another currency than the report's cannot be compared with their value
 * without an exchange rate we do not have: they become row problems that say what to do. A file
 * left with no holding at all is refused (a report of it would show only zeros).
 */
export function requireCurrency(portfolios: PortfolioInput[], currency: string, converts?: (code: string) => boolean): void {
  const kept = new Map<string, number>();
  const other = new Map<string, string>();
  for (const p of portfolios) {
    const keep = [];
    for (const h of p.holdings) {
      kept.set(h.source.file, kept.get(h.source.file) ?? 0);
      // With an exchange-rates file (--fx-rates), any currency it covers is converted.
      if (h.currency === undefined || h.currency === currency || converts?.(h.currency)) {
        keep.push(h);
        kept.set(h.source.file, kept.get(h.source.file)! + 1);
      } else {
        other.set(h.source.file, h.currency);
        const said = converts
          ? rowReason('holdings.currency_no_rate', { code: h.currency, currency })
          : rowReason('holdings.currency_differs', { code: h.currency, currency });
        p.problems.push({
          portfolio: p.name,
          file: h.source.file,
          sheet: h.source.sheet,
          row: h.source.row,
          field: 'currency',
          value: h.currency,
          reason: englishReason(said),
          said,
        });
      }
    }
    p.holdings = keep;
  }
  for (const [file, n] of kept) {
    if (n === 0) throw new InputError(`every holding in ${file} is in another currency than the report's ${currency} (${other.get(file)}), so no report is written for it: run it with --currency ${other.get(file)}, or convert its purchase prices to ${currency}`);
  }
  const empty = portfolios.find((p) => p.holdings.length === 0 && p.problems.some((x) => x.field === 'currency'));
  if (empty) throw new InputError(`every holding of portfolio "${empty.name}" is in another currency than the report's ${currency}, so no report is written for it: ${empty.problems.find((x) => x.field === 'currency')!.reason}`);
}
