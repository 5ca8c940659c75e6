import { MissingRateError, type RateTable } from '../../src/fx';
import { InputError, type PortfolioInput } from '../../src/holdings/types';
import { CURRENCIES, type Currency } from '../../src/wire';
import type { BuildContext } from './context';

/**
 * Units of `to` per unit of `from` on `date`, from the run's rates file. Throws MissingRateError
 * (naming currency and date) when there is no usable rate, or no rates file for a conversion.
 */
export function fxRate(ctx: Pick<BuildContext, 'fx'>, from: string, to: string, date: string): number {
  if (from === to) return 1;
  if (!ctx.fx) throw new MissingRateError(from, date, `converting ${from} to ${to} needs an exchange-rates file: run with --fx-rates FILE (see docs/report-job.md)`);
  return ctx.fx.rate(from, to, date);
}

/**
 * The currency the service is asked in: the reporting currency when the service pays out in it
 * (USD, EUR, GBP), else USD; the answers are converted to the reporting currency at the as-of
 * date's rate.
 */
export function serviceCurrencyFor(reporting: string): Currency {
  return (CURRENCIES as readonly string[]).includes(reporting) ? (reporting as Currency) : 'USD';
}

/** A reporting currency the service does not pay out in needs the rates file to cover it. */
export function checkReportingCurrency(reporting: string, fx: RateTable | undefined): void {
  if (serviceCurrencyFor(reporting) === reporting) return;
  if (!fx) throw new InputError(`--currency ${reporting} needs an exchange-rates file: the service values in ${CURRENCIES.join(', ')} only; give --fx-rates FILE (see docs/report-job.md)`);
  if (!fx.covers(reporting)) throw new InputError(`--currency ${reporting} is not in the exchange-rates file ${fx.source}; it has ${fx.currencies().join(', ')}`);
}

/**
 * The portfolios as the service sees them: purchase prices in the currency it is asked in (the
 * portfolio analytics compare them with values). A price whose rate is missing is left as it is:
 * the report lists that holding as not valued (the missing rate named) whatever the service says.
 */
export function inServiceCurrency(portfolios: readonly PortfolioInput[], asked: Currency, reporting: string, fx: RateTable | undefined): PortfolioInput[] {
  return portfolios.map((p) => ({
    ...p,
    holdings: p.holdings.map((h) => {
      const from = h.currency ?? reporting;
      if (from === asked) return h;
      try {
        return { ...h, purchasePrice: h.purchasePrice * fxRate({ fx }, from, asked, h.purchaseDate), currency: asked };
      } catch (e) {
        if (e instanceof MissingRateError) return h;
        throw e;
      }
    }),
  }));
}
