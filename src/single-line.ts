/**
 * Whitespace that is formatting in a name: what Alt+Enter, a pasted table or a web page put into
 * a cell (line breaks, tabs, no-break spaces). Other control characters (NUL, ESC…) are not
 * whitespace and are left for validation to refuse.
 */
const FORMATTING_WHITESPACE = /[\t\n\v\f\r \u0085\u00a0\u2028\u2029]+/g;
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/** A descriptive text on one line: every run of whitespace, line breaks and tabs included, is one space. */
export function singleLine(text: string): string {
  return text.replace(FORMATTING_WHITESPACE, ' ').trim();
}

/** Free text (notes): line breaks kept as \n, each line's other whitespace folded. */
export function keepLines(text: string): string {
  return text
    .replace(LINE_BREAK, '\n')
    .split('\n')
    .map(singleLine)
    .join('\n')
    .trim();
}
