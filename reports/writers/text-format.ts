/** Numbers and dates as people read them in the PDF (the spreadsheet formats keep real numbers). */

const moneyFormatters = new Map<string, Intl.NumberFormat>();

function moneyFormatter(currency: string, decimals: number): Intl.NumberFormat {
  const key = `${currency}:${decimals}`;
  let f = moneyFormatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    } catch {
      // Not an ISO currency Intl knows: plain number followed by the code.
      const plain = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
      f = { format: (n: number) => `${plain.format(n)} ${currency}` } as Intl.NumberFormat;
    }
    moneyFormatters.set(key, f);
  }
  return f;
}

/** "$1,234,567.89" (decimals 2) or "$1,234,568" (decimals 0); "–" for null. */
export function formatMoney(value: number | null, currency: string, decimals = 2): string {
  if (value === null || !Number.isFinite(value)) return '–';
  return moneyFormatter(currency, decimals).format(value);
}

/** "12.3 %" ("+12.3 %" with sign); "–" for null. Input in percent units. */
export function formatPercent(value: number | null, decimals = 1, signed = false): string {
  if (value === null || !Number.isFinite(value)) return '–';
  const fixed = Math.abs(value).toFixed(decimals);
  // A small positive share reads "<0.1 %", not "0.0 %" (which looks like nothing is held).
  if (!signed && value > 0 && Number(fixed) === 0) return `<${(10 ** -decimals).toFixed(decimals)} %`;
  const negative = value < 0 && Number(fixed) !== 0;
  const sign = negative ? '−' : signed ? '+' : '';
  return `${sign}${fixed} %`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-10-31" → "31 October 2026"; other text unchanged. */
export function formatLongDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return date;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

/** "2024-11-20" → "20 Nov 2024": a date in a narrow table column; other text unchanged. */
export function formatShortDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return date;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]?.slice(0, 3) ?? m[2]} ${m[1]}`;
}

/** "2026-11-01T06:00:12Z" → "1 November 2026, 06:00 UTC". */
export function formatTimestamp(ts: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(ts);
  return m ? `${formatLongDate(m[1]!)}, ${m[2]} UTC` : ts;
}

export function formatInteger(value: number | null): string {
  return value === null || !Number.isFinite(value) ? '–' : Math.round(value).toLocaleString('en-US');
}

const compactFormatters = new Map<string, Intl.NumberFormat>();

/** "$38.3K", "€1.2M": for ranges in tight table cells. */
export function formatCompactMoney(value: number | null, currency: string): string {
  if (value === null || !Number.isFinite(value)) return '–';
  let f = compactFormatters.get(currency);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 });
    } catch {
      const plain = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
      f = { format: (n: number) => `${plain.format(n)} ${currency}` } as Intl.NumberFormat;
    }
    compactFormatters.set(currency, f);
  }
  return f.format(value);
}

/**
 * A return in a narrow table cell: "+12.3 %", and from 1,000 % on whole percent with thousands
 * separators, "+23,123 %", which fits where "+23123.0 %" wrapped.
 */
export function formatReturn(value: number | null): string {
  if (value === null || !Number.isFinite(value) || Math.abs(value) < 1000) return formatPercent(value, 1, true);
  const sign = value < 0 ? '−' : '+';
  return `${sign}${Math.round(Math.abs(value)).toLocaleString('en-US')} %`;
}

const plainAmount = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** An amount with its ISO code in front, whole units: "HKD 98,000" (the code, not a symbol, so CHF and HK$ cannot be mistaken). */
export function formatAmountIn(value: number | null, code: string): string {
  if (value === null || !Number.isFinite(value)) return '–';
  return `${code} ${plainAmount.format(value)}`;
}

/** An exchange rate to four significant digits ("1.089", "0.005747"); "–" for null. */
export function formatRate(value: number | null): string {
  if (value === null || !Number.isFinite(value) || value <= 0) return '–';
  return String(Number(value.toPrecision(4)));
}
