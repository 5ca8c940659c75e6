/** Exchange rates from a file the firm supplies (the ECB's reference rates or its own), what the file is, and conversion through the euro. */
export { RateTable, MissingRateError, MAX_RATE_AGE_DAYS, type Quote } from './rate-table';
export { readRatesFile, readRatesSource, parseRates, RatesFileError } from './read-rates';
export { isCurrencyCode } from './codes';
export { ratesKind, ECB_HIST_CURRENCIES, type RatesKind } from './provenance';
