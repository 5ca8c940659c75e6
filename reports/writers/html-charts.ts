/**
 * The page's charts as inline SVG (issue 38): a viewBox that scales to any width, a caption that
 * says every figure in words (the PDF's alternative texts, chart-words.ts), each point or bar
 * focusable with its value as its label (the script shows it on focus and hover; its <title> is
 * the browser's own tooltip without script), and the figures as a real table in a <details>.
 * Drawn left to right in every language (`direction="ltr"` on the SVG, so text anchors do not
 * flip on an `ar` page); the captions and tables follow the page's direction.
 */
import type { Translator } from '../../src/i18n';
import { PALETTE } from './palette';
import { lineAxis, shortMonth, type Bar, type Line } from './chart-words';
import { html, trusted, type SafeHtml } from './html-escape';
import { htmlTable, type HtmlRow } from './html-table';

/** Coordinates to two decimals: enough for a viewBox, and short. */
const n = (v: number) => String(Math.round(v * 100) / 100);

interface FigureParts {
  id: string;
  caption: string;
  svg: SafeHtml;
  table: SafeHtml;
  legend?: SafeHtml;
}

function chartFigure(f: FigureParts, tr: Translator): SafeHtml {
  return html`<figure class="chart" id="${f.id}">
${f.legend ?? ''}${f.svg}
<p class="tip" id="${f.id}-tip" aria-live="polite"></p>
<figcaption id="${f.id}-cap">${f.caption}</figcaption>
<p class="muted">${tr.t('html.chart_hint')}</p>
<details><summary>${tr.t('html.show_data')}</summary>${f.table}</details>
</figure>`;
}

/** A focusable mark: its label is what a screen reader says and what the script shows. */
const mark = (label: string, value: number | null, shape: SafeHtml) =>
  html`<g class="chart-point" tabindex="0" role="img" aria-label="${label}"${value === null ? '' : html` data-value="${String(value)}"`}><title>${label}</title>${shape}</g>`;

/** Horizontal bars (one row each, labels at the start): readable on a phone, where columns of vertical bars would crowd. */
export function barFigure(o: { id: string; title: string; caption: string; bars: readonly Bar[]; format: (v: number | null) => string; columns: [string, string]; tr: Translator }): SafeHtml {
  const { bars, format, tr } = o;
  const W = 480;
  const row = 30;
  const labelW = 170;
  const valueW = 70;
  const plot = W - labelW - valueW;
  const values = bars.map((b) => b.value ?? 0);
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const span = max - min || 1;
  const xOf = (v: number) => labelW + ((v - min) / span) * plot;
  const H = bars.length * row + 8;
  const shapes = bars.map((b, i) => {
    const y = 4 + i * row;
    const label = tr.t('html.chart_point', { label: b.label, value: format(b.value) });
    const x0 = xOf(Math.min(0, b.value ?? 0));
    const w = Math.max(Math.abs(xOf(b.value ?? 0) - xOf(0)), b.value === null ? 0 : 1);
    const fill = `#${b.value !== null && b.value < 0 ? PALETTE.negative : b.colour}`;
    return html`<text x="${n(labelW - 8)}" y="${n(y + row / 2 + 4)}" text-anchor="end" class="axis">${b.label.length > 24 ? `${b.label.slice(0, 23)}…` : b.label}</text>${mark(
      label,
      b.value,
      html`<rect x="${n(x0)}" y="${n(y + 5)}" width="${n(w)}" height="${n(row - 10)}" fill="${fill}"></rect>`,
    )}<text x="${n(W - valueW + 6)}" y="${n(y + row / 2 + 4)}" class="axis">${format(b.value)}</text>`;
  });
  const svg = html`<svg viewBox="0 0 ${W} ${H}" direction="ltr" role="group" aria-labelledby="${o.id}-cap" focusable="false">
<line x1="${n(xOf(0))}" x2="${n(xOf(0))}" y1="0" y2="${H}" class="zero"></line>
${shapes}
</svg>`;
  const rows: HtmlRow[] = bars.map((b) => [b.label, { text: format(b.value), value: b.value, sign: b.value }]);
  return chartFigure({ id: o.id, caption: o.caption, svg, table: htmlTable({ caption: o.title, columns: [{ label: o.columns[0] }, { label: o.columns[1], numeric: true }], rows, cards: false }) }, tr);
}

/** Lines over dates (the value over time and the money put in), the value axis labelled, about six dates along the bottom. */
export function lineFigure(o: {
  id: string;
  title: string;
  caption: string;
  dates: readonly string[];
  lines: readonly Line[];
  format: (v: number) => string;
  axisFormat: (v: number) => string;
  dateColumn: string;
  tr: Translator;
}): SafeHtml {
  const { dates, lines, tr } = o;
  const W = 640;
  const H = 280;
  const left = 78;
  const right = 12;
  const top = 12;
  const bottom = 28;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const { step, min, max } = lineAxis(lines);
  const yOf = (v: number) => top + ((max - v) / (max - min)) * plotH;
  const xOf = (i: number) => left + (dates.length > 1 ? (i / (dates.length - 1)) * plotW : plotW / 2);
  const grid: SafeHtml[] = [];
  for (let v = min; v <= max + step / 2; v += step) {
    grid.push(html`<line x1="${left}" x2="${W - right}" y1="${n(yOf(v))}" y2="${n(yOf(v))}" class="${v === 0 ? 'zero' : 'grid'}"></line><text x="${left - 6}" y="${n(yOf(v) + 4)}" text-anchor="end" class="axis">${o.axisFormat(v)}</text>`);
  }
  const every = Math.max(1, Math.ceil(dates.length / 6));
  // The first and last months' labels hang inward: centred on the chart's edges they were cut off ("Oct 20").
  const ticks = dates.map((d, i) => (i % every === 0 || i === dates.length - 1 ? html`<text x="${n(xOf(i))}" y="${H - 8}" text-anchor="${i === 0 ? 'start' : i === dates.length - 1 ? 'end' : 'middle'}" class="axis">${shortMonth(d, tr)}</text>` : ''));
  const paths = lines.map(
    (l) => html`<polyline fill="none" stroke="#${l.colour}" stroke-width="2.5"${l.dashed ? html` stroke-dasharray="6 4"` : ''} points="${trusted(l.values.map((v, i) => `${n(xOf(i))},${n(yOf(v))}`).join(' '))}"></polyline>`,
  );
  // The first line's points are the focusable marks (the value); the others are read in the table.
  const first = lines[0];
  const marks = first
    ? first.values.map((v, i) => mark(tr.t('html.chart_point', { label: `${first.label}, ${tr.date(dates[i]!)}`, value: o.format(v) }), v, html`<circle cx="${n(xOf(i))}" cy="${n(yOf(v))}" r="5" fill="#${first.colour}"></circle>`))
    : [];
  const svg = html`<svg viewBox="0 0 ${W} ${H}" direction="ltr" role="group" aria-labelledby="${o.id}-cap" focusable="false">
${grid}${ticks}${paths}${marks}
</svg>`;
  const legend = html`<ul class="legend">${lines.map((l) => html`<li><svg class="swatch" viewBox="0 0 24 8" aria-hidden="true" focusable="false"><line x1="0" x2="24" y1="4" y2="4" stroke="#${l.colour}" stroke-width="3"${l.dashed ? html` stroke-dasharray="6 4"` : ''}></line></svg>${l.label}</li>`)}</ul>`;
  const rows: HtmlRow[] = dates.map((d, i) => [tr.date(d), ...lines.map((l) => ({ text: o.format(l.values[i]!), value: l.values[i]! }))]);
  const table = htmlTable({ caption: o.title, columns: [{ label: o.dateColumn }, ...lines.map((l) => ({ label: l.label, numeric: true }))], rows, cards: false });
  return chartFigure({ id: o.id, caption: o.caption, svg, table, legend }, tr);
}
