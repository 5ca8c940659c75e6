/**
 * What a rates file is, as far as its own text says: the report's Method text names the source
 * by it, so a client is never told "the European Central Bank's reference rates" of a file the
 * firm typed or of the demo's invented one.
 */

/**
 * - `ecb`: the ECB's eurofxref-hist.csv as published: its own header first, no other line before it;
 * - `illustrative`: a file that says it is illustrative (a leading comment or its name): not real rates;
 * - `firm`: any other readable file (the plain layout, or the ECB layout with another header).
 */
export type RatesKind = 'ecb' | 'illustrative' | 'firm';

/**
 * The currency columns of the ECB's eurofxref-hist.csv header, in its order (after `Date`). The
 * ECB keeps the columns of currencies it no longer fixes (N/A) and adds new ones at the end, so a
 * published header starts with exactly these.
 */
export const ECB_HIST_CURRENCIES = [
  'USD', 'JPY', 'BGN', 'CYP', 'CZK', 'DKK', 'EEK', 'GBP', 'HUF', 'LTL', 'LVL', 'MTL', 'PLN', 'ROL', 'RON', 'SEK', 'SIT', 'SKK', 'CHF', 'ISK', 'NOK',
  'HRK', 'RUB', 'TRL', 'TRY', 'AUD', 'BRL', 'CAD', 'CNY', 'HKD', 'IDR', 'ILS', 'INR', 'KRW', 'MXN', 'MYR', 'NZD', 'PHP', 'SGD', 'THB', 'ZAR',
] as const;

/** A file calls itself illustrative in a comment or its name ("fx-rates-ILLUSTRATIVE.csv"). */
const ILLUSTRATIVE = /illustrative/i;

/**
 * `text`: the file as read (comments included); `name`: its base name. The ECB's file has no
 * comment lines: one anywhere means the file was edited after publication, so it is not the ECB's own.
 */
export function ratesKind(text: string, name: string): RatesKind {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
  const comments = lines.filter((l) => l.trimStart().startsWith('#'));
  if (ILLUSTRATIVE.test(name) || comments.some((c) => ILLUSTRATIVE.test(c))) return 'illustrative';
  if (comments.length > 0) return 'firm';
  const cells = (lines[0] ?? '').split(',').map((c) => c.trim());
  const isEcb = cells[0] === 'Date' && ECB_HIST_CURRENCIES.every((code, i) => cells[i + 1] === code);
  return isEcb ? 'ecb' : 'firm';
}
