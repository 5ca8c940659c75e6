import type { Brand } from '../../src/brand';
import type { RateTable } from '../../src/fx';
import type { PreviousRun } from './previous';
import type { Language } from '../../src/i18n/languages';
import type { InsuranceSettings } from '../../src/insurance/types';

/** What every report of one run shares. */
export interface BuildContext {
  asOf: string;
  /** The reporting currency (any ISO 4217 code the rates file covers). */
  currency: string;
  /** Recorded once per run (checkpoint), so a resumed run prints the same. */
  generatedAt: string;
  sandbox: boolean;
  preparedBy?: string;
  previous?: PreviousRun;
  /** Exchange rates (--fx-rates); without them only amounts already in the reporting currency can be used. */
  fx?: RateTable;
  /** Under this share of value market validated (percent), the summary page names the holdings not validated; default 80. */
  validatedWarningPercent?: number;
  /** The service's limits in force during the run and where they came from (describeLimits): an analyst note. */
  limitsInForce?: string;
  /** The firm's brand for the PDF and xlsx (issue 28); carried on the report data to the writers. */
  brand?: Brand;
  /** The run's --replacement and --insurance-tolerance (issue 37); absent: the defaults (high, 10 %). */
  insurance?: InsuranceSettings;
  /** The run's --language (issue 36): a portfolio's without one of its own, and the consolidated report's; absent: en. */
  language?: Language;
}
