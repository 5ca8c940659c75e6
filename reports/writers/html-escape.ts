/**
 * HTML that is safe by construction: the `html` tagged template escapes every interpolated value
 * unless it is already `SafeHtml` (made by this template or `trusted`), so a holding named
 * `<img src=x onerror=…>` is text wherever it is written, in an element or an attribute.
 * Hand-written rather than a library: escaping the five characters HTML gives meaning to is the
 * whole job (what escape-html does), and the template is what makes forgetting it impossible.
 */

/** Markup known to be safe: built by `html` or from the writer's own constants. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What a template may interpolate: text (escaped), safe markup, or lists of them; null, undefined and false write nothing. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML that shows it literally, in element content and in quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** The template: constant markup as written, every value escaped unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** The writer's own markup (the style sheet, the script, an SVG path's numbers): never text from the input. */
export const trusted = (markup: string): SafeHtml => new SafeHtml(markup);
