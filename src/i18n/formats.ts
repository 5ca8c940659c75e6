/**
 * Numbers and dates in a language, only through Intl (Node's full ICU, and the browser's in the
 * add-in). English keeps the house style the writers have always printed (reports/writers/
 * text-format.ts): "$1,234,567.89", "12.3 %" with a typographic minus, "31 October 2026",
 * "20 Nov 2024", so moving a writer onto the translator changes no English output.
 */
import { PSEUDO_LANGUAGE, type Language } from './languages';

/** What a missing figure prints, in every language. */
export const NO_VALUE = '–';

export interface PercentOptions {
  /** Decimal places, 1 by default. */
  digits?: number;
  /** "+12.3 %": a sign on gains too. */
  signed?: boolean;
}

export interface Formats {
  money(value: number | null, currency: string, decimals?: number): string;
  /** "$38.3K": a range in a tight table cell. */
  compactMoney(value: number | null, currency: string): string;
  /** "HKD 98,000": whole units behind the ISO code, so CHF and HK$ cannot be mistaken. */
  amountIn(value: number | null, code: string): string;
  /** Input in percent units (12.3 for 12.3 %). A small positive share reads "<0.1 %". */
  percent(value: number | null, options?: PercentOptions): string;
  /** A return in a narrow cell: "+12.3 %", from 1,000 % on whole and grouped ("+23,123 %"). */
  returnPercent(value: number | null): string;
  number(value: number | null, digits?: number): string;
  /** "2026-10-31" → "31 October 2026" ("31. Oktober 2026"); text that is no date comes back unchanged. */
  date(iso: string): string;
  /** "2024-11-20" → "20 Nov 2024": a date in a narrow table column. */
  shortDate(iso: string): string;
  /** "2026-10" (or a full date) → "October 2026". */
  month(isoMonth: string): string;
  /** "2026-11-01T06:00:12Z" → "1 November 2026, 06:00 UTC". */
  timestamp(ts: string): string;
}

/** The Intl locale of a language: the house English is en-US's numbers; the pseudo-locale formats as English. */
export function intlLocale(lang: Language): string {
  if (lang === 'en' || lang === PSEUDO_LANGUAGE) return 'en-US';
  return lang;
}

/** The house English and the pseudo-locale (which formats as it): the dates and numbers the reports have always printed. */
export const isHouseEnglish = (lang: Language) => lang === 'en' || lang === PSEUDO_LANGUAGE;

const cached = <K, V>(make: (key: K) => V) => {
  const cache = new Map<K, V>();
  return (key: K): V => {
    let v = cache.get(key);
    if (v === undefined) cache.set(key, (v = make(key)));
    return v;
  };
};

const finite = (v: number | null): v is number => v !== null && Number.isFinite(v);

/** A date at UTC midnight from "YYYY-MM-DD…", or undefined for other text. */
function utcDate(text: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  // "2026-02-31" is no day: left as written rather than rolled over into March.
  return d.getUTCDate() === Number(m[3]) ? d : undefined;
}

// Every calendar pinned to the Gregorian one: Japanese dates without era, Arabic without the Hijri calendar.
const dateOptions = (o: Intl.DateTimeFormatOptions): Intl.DateTimeFormatOptions => ({ ...o, timeZone: 'UTC', calendar: 'gregory' });

export function formatsFor(lang: Language): Formats {
  const locale = intlLocale(lang);
  const house = isHouseEnglish(lang);

  const moneyFormat = cached((key: string): ((n: number) => string) => {
    const [currency, decimals] = key.split(':') as [string, string];
    const digits = { minimumFractionDigits: Number(decimals), maximumFractionDigits: Number(decimals) };
    try {
      const f = new Intl.NumberFormat(locale, { style: 'currency', currency, ...digits });
      return (n) => f.format(n);
    } catch {
      // Not an ISO currency Intl knows: the plain number followed by the code.
      const plain = new Intl.NumberFormat(locale, digits);
      return (n) => `${plain.format(n)} ${currency}`;
    }
  });
  const compactFormat = cached((currency: string): ((n: number) => string) => {
    try {
      const f = new Intl.NumberFormat(locale, { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 });
      return (n) => f.format(n);
    } catch {
      const plain = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
      return (n) => `${plain.format(n)} ${currency}`;
    }
  });
  const decimalFormat = cached((key: string) => {
    const [digits, grouping] = key.split(':');
    return new Intl.NumberFormat(locale, { minimumFractionDigits: Number(digits), maximumFractionDigits: Number(digits), useGrouping: grouping === 'g' });
  });
  const percentFormat = cached((key: string) => {
    const [digits, signed] = key.split(':');
    return new Intl.NumberFormat(locale, {
      style: 'percent',
      minimumFractionDigits: Number(digits),
      maximumFractionDigits: Number(digits),
      signDisplay: signed === 's' ? 'exceptZero' : 'negative',
    });
  });
  const dateFormat = cached((kind: 'long' | 'short' | 'month'): Intl.DateTimeFormat => {
    // The house English writes day month year, British order with full month names.
    const dateLocale = house ? 'en-GB' : locale;
    if (kind === 'long') return new Intl.DateTimeFormat(dateLocale, dateOptions({ day: 'numeric', month: 'long', year: 'numeric' }));
    if (kind === 'short') return new Intl.DateTimeFormat(house ? 'en-US' : locale, dateOptions({ day: 'numeric', month: 'short', year: 'numeric' }));
    return new Intl.DateTimeFormat(dateLocale, dateOptions({ month: 'long', year: 'numeric' }));
  });

  let stamp: Intl.DateTimeFormat | undefined;
  const timestampFormat = () =>
    (stamp ??= new Intl.DateTimeFormat(locale, dateOptions({ day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' })));

  /**
   * The house percent, exactly as the writers print it: toFixed's rounding of the exact binary
   * value (Intl rounds the shortest decimal, so 1.005 would differ), no grouping, a typographic
   * minus, "+" on a signed zero, a space before "%".
   */
  const housePercent = (value: number, digits: number, signed: boolean): string => {
    const fixed = Math.abs(value).toFixed(digits);
    const sign = value < 0 && Number(fixed) !== 0 ? '−' : signed ? '+' : '';
    return `${sign}${fixed} %`;
  };

  const percent = (value: number | null, options: PercentOptions = {}): string => {
    if (!finite(value)) return NO_VALUE;
    const digits = options.digits ?? 1;
    const signed = options.signed ?? false;
    const roundsToZero = Number(Math.abs(value).toFixed(digits)) === 0;
    // A small positive share reads "<0.1 %", not "0.0 %" (which looks like nothing is held).
    if (!signed && value > 0 && roundsToZero) return `<${percent(10 ** -digits, { digits })}`;
    if (house) return housePercent(value, digits, signed);
    return percentFormat(`${digits}:${signed ? 's' : 'u'}`).format(value / 100);
  };

  return {
    money: (value, currency, decimals = 2) => (finite(value) ? moneyFormat(`${currency}:${decimals}`)(value) : NO_VALUE),
    compactMoney: (value, currency) => (finite(value) ? compactFormat(currency)(value) : NO_VALUE),
    amountIn: (value, code) => (finite(value) ? `${code} ${decimalFormat('0:g').format(value)}` : NO_VALUE),
    percent,
    returnPercent: (value) => {
      if (!finite(value) || Math.abs(value) < 1000) return percent(value, { digits: 1, signed: true });
      if (!house) return percentFormat('0:s').format(value / 100);
      return `${value < 0 ? '−' : '+'}${decimalFormat('0:g').format(Math.abs(value))} %`;
    },
    // Whole numbers rounded as the writers always have (Math.round: -2.5 → -2), then grouped by Intl.
    number: (value, digits = 0) => (finite(value) ? decimalFormat(`${digits}:g`).format(digits === 0 ? Math.round(value) : value) : NO_VALUE),
    date: (iso) => {
      const d = utcDate(iso);
      return d ? dateFormat('long').format(d) : iso;
    },
    shortDate: (iso) => {
      const d = utcDate(iso);
      if (!d) return iso;
      if (!house) return dateFormat('short').format(d);
      // "20 Nov 2024": en-US's month abbreviations (en-GB's say "Sept") in day-month-year order.
      const parts = dateFormat('short').formatToParts(d);
      const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
      return `${part('day')} ${part('month')} ${part('year')}`;
    },
    month: (isoMonth) => {
      const d = utcDate(/^\d{4}-\d{2}$/.test(isoMonth) ? `${isoMonth}-01` : isoMonth);
      return d ? dateFormat('month').format(d) : isoMonth;
    },
    timestamp: (ts) => {
      const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(ts);
      if (!m) return ts;
      const d = utcDate(m[1]!);
      if (!d) return ts;
      if (house) return `${dateFormat('long').format(d)}, ${m[2]} UTC`;
      const at = new Date(ts);
      return Number.isNaN(at.getTime()) ? ts : timestampFormat().format(at);
    },
  };
}
