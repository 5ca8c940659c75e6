/**
 * Text for a terminal or a log file, where a name from a holdings file must not act: an ESC could
 * recolour or clear the screen, a CR or LF could forge a log line ("Done: every holding valued").
 * Control characters (C0, DEL, C1), line and paragraph separators and the bidirectional overrides
 * that reorder what is shown are written as visible escapes; everything else is kept.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Several lines of our own (help, a stack trace): each line made printable, the line breaks kept. */
export function printableLines(text: string): string {
  return text
    .split('\n')
    .map((line) => printable(line))
    .join('\n');
}
