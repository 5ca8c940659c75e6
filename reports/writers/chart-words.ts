/**
 * What the report's charts show, independent of how they are drawn: their series, the nice steps
 * of a value axis, the axis's short months, and the alternative text that says every figure in
 * words. The PDF's charts (pdf-charts.ts) and the web page's (html-charts.ts) share them, so both
 * say the same thing; nothing here loads pdfkit.
 */
import { isHouseEnglish, translator, type Translator } from '../../src/i18n';

export interface Slice {
  label: string;
  value: number;
  colour: string;
}

export interface Bar {
  label: string;
  /** Percent units; null draws "n/a". */
  value: number | null;
  colour: string;
}

export interface Line {
  label: string;
  /** One value per date. */
  values: number[];
  colour: string;
  /** Drawn dashed (a reference line, such as the money put in). */
  dashed?: boolean;
}

/** A round step (1, 2 or 5 times a power of ten) near `raw`: a value axis's gridlines. */
export function niceStep(raw: number): number {
  const pow = 10 ** Math.floor(Math.log10(raw));
  const n = raw / pow;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * pow;
}

/** The value axis of lines over dates: zero included, about four round steps. */
export function lineAxis(lines: readonly Pick<Line, 'values'>[]): { step: number; min: number; max: number } {
  const all = lines.flatMap((l) => l.values).filter(Number.isFinite);
  const step = niceStep(Math.max(1, (Math.max(0, ...all) - Math.min(0, ...all)) / 4));
  return { step, min: Math.floor(Math.min(0, ...all) / step) * step, max: Math.ceil(Math.max(0, ...all) / step) * step || step };
}

/** "Oct 2024": an axis date, the short month of the report's language ("Okt. 2024", "2024年10月"). */
export function shortMonth(date: string, tr: Translator): string {
  const m = /^(\d{4})-(\d{2})/.exec(date);
  if (!m) return date;
  if (isHouseEnglish(tr.lang)) return `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
  // The translator has no short month: Intl's, on the Gregorian calendar as every date of the report.
  return new Intl.DateTimeFormat(tr.lang, { month: 'short', year: 'numeric', timeZone: 'UTC', calendar: 'gregory' }).format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)));
}

/** Items of an alternative text: "Watches 61.2 %; Art 38.8 %". */
const altItems = (tr: Translator, items: { label: string; value: string }[]) => items.map((i) => tr.t('pdf.alt_item', i)).join(tr.t('pdf.alt_separator'));

/** What the donut shows, for its Figure's alternative text: every slice with its share. */
export function donutAlt(title: string, slices: Slice[], centre: { label: string; value: string }, tr: Translator = translator('en')): string {
  const total = slices.reduce((s, sl) => s + Math.max(0, sl.value), 0);
  const values = { title, centreLabel: centre.label, centreValue: centre.value };
  if (slices.length === 0) return tr.t('pdf.donut_alt_empty', values);
  return tr.t('pdf.donut_alt', { ...values, slices: altItems(tr, slices.map((sl) => ({ label: sl.label, value: total > 0 ? tr.percent((Math.max(0, sl.value) / total) * 100) : '–' }))) });
}

/** What the bars show, for their Figure's alternative text: every bar with its value. */
export function barAlt(title: string, bars: Bar[], tr: Translator = translator('en')): string {
  return tr.t('pdf.bar_alt', { title, bars: altItems(tr, bars.map((b) => ({ label: b.label, value: b.value === null ? tr.t('pdf.not_available') : tr.percent(b.value, { signed: true }) }))) });
}

/** What the lines show, for their Figure's alternative text: the span, and each line's first, last, lowest and highest value. */
export function lineAlt(title: string, dates: string[], lines: Line[], format: (v: number) => string, tr: Translator = translator('en')): string {
  const parts = lines.map((l) =>
    tr.t('pdf.line_alt_item', { label: l.label, first: format(l.values[0]!), last: format(l.values[l.values.length - 1]!), lowest: format(Math.min(...l.values)), highest: format(Math.max(...l.values)) }),
  );
  return tr.t('pdf.line_alt', { title, count: dates.length, from: tr.date(dates[0]!), to: tr.date(dates[dates.length - 1]!), lines: parts.join(tr.t('pdf.alt_separator')) });
}
