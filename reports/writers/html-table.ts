/**
 * A table of the web page: caption, column headers with scope, one row per item. Each cell
 * carries its column's label (data-label) so the phone layout (html-styles.ts) shows every row
 * as a card of labelled values; a numeric cell carries its raw number (data-value) for the
 * script's sorting, so the page holds no second model of the data.
 */
import { html, type HtmlValue, type SafeHtml } from './html-escape';

export interface HtmlCell {
  text: string;
  /** A second line (the asset id under a holding's name, a range under a value). */
  sub?: string;
  /** The raw number behind the text, for sorting. */
  value?: number | null;
  /** The sign of a return or change: coloured, and the text already says it with + or −. */
  sign?: number | null;
  bold?: boolean;
}

export interface HtmlColumn {
  label: string;
  numeric?: boolean;
}

export type HtmlRow = readonly (HtmlCell | string)[];

export interface HtmlTableOptions {
  caption: string;
  columns: readonly HtmlColumn[];
  rows: Iterable<HtmlRow>;
  total?: HtmlRow;
  /** An id for the script (the holdings table is sortable and filterable). */
  id?: string;
  /** Rows are cards on a phone (the default); a small two-column table stays a table. */
  cards?: boolean;
  /** The script's words for sorting by a column ("Sort by Value"), on its header: the table is sortable. */
  sortLabel?: (column: string) => string;
}

const cellOf = (c: HtmlCell | string): HtmlCell => (typeof c === 'string' ? { text: c } : c);

/** The class of a signed figure: its colour follows the sign (the text says it too). */
export const signClass = (v: number | null | undefined): string => (v === null || v === undefined || v === 0 ? '' : v < 0 ? 'neg' : 'pos');

function cell(c: HtmlCell, col: HtmlColumn, first: boolean): SafeHtml {
  const classes = [col.numeric ? 'num' : '', signClass(c.sign), c.bold ? 'b' : ''].filter(Boolean).join(' ');
  const value = c.value === undefined || c.value === null || !Number.isFinite(c.value) ? undefined : String(c.value);
  const content: HtmlValue = [c.text, c.sub ? html`<span class="sub">${c.sub}</span>` : ''];
  // The first cell names the row: a row header, as the PDF's tagged tables have.
  return first
    ? html`<th scope="row" data-label="${col.label}"${classes ? html` class="${classes}"` : ''}${value ? html` data-value="${value}"` : ''}>${content}</th>`
    : html`<td data-label="${col.label}"${classes ? html` class="${classes}"` : ''}${value ? html` data-value="${value}"` : ''}>${content}</td>`;
}

function row(r: HtmlRow, columns: readonly HtmlColumn[]): SafeHtml {
  return html`<tr>${r.map((c, i) => cell(cellOf(c), columns[i] ?? { label: '' }, i === 0))}</tr>`;
}

/** From this many columns a table is 'wide'. */
const WIDE_COLUMNS = 9;

export function htmlTable(o: HtmlTableOptions): SafeHtml {
  const body: SafeHtml[] = [];
  for (const r of o.rows) body.push(row(r, o.columns));
  // A table of many columns (the holdings' 14) is cards up to a laptop's width too (html-styles.ts): squeezed below it, its headers and figures broke mid-word.
  return html`<div class="table-wrap"><table${o.id ? html` id="${o.id}"` : ''} class="${o.cards === false ? 'plain' : o.columns.length >= WIDE_COLUMNS ? 'cards wide' : 'cards'}">
<caption>${o.caption}</caption>
<thead><tr>${o.columns.map((c) => html`<th scope="col"${c.numeric ? html` class="num"` : ''}${o.sortLabel ? html` data-sort="${o.sortLabel(c.label)}"` : ''}>${c.label}</th>`)}</tr></thead>
<tbody>
${body.map((b) => html`${b}\n`)}</tbody>
${o.total ? html`<tfoot>${row(o.total, o.columns)}</tfoot>` : ''}
</table></div>`;
}
