import { MissingRateError } from '../../src/fx';
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
