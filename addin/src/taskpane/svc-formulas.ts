/**
 * Reading SVC calls out of formula text (Range.formulas is always en-US: commas, dotted
 * decimals), for freezing and for the refresh budget. Pure: no Office.js.
 */

/** One SVC function call in a formula: its name (upper case) and its arguments' source text. */
export interface SvcCall {
  name: string;
  args: string[];
}

/** How add-in functions appear in formula text: `SVC.MIDVALUE(` in Office.js, `_xldudf_SVC_MIDVALUE(` in some saved files. */
const CALL = /(?:_xldudf_SVC_|SVC\.)([A-Za-z][A-Za-z0-9]*)\s*\(/y;

export function isSvcFormula(formula: unknown): formula is string {
  return typeof formula === 'string' && formula.startsWith('=') && svcCalls(formula).length > 0;
}

/** Every SVC call in the formula, outer ones first; text inside string literals is ignored. */
export function svcCalls(formula: string): SvcCall[] {
  const calls: SvcCall[] = [];
  for (let i = 0; i < formula.length; i++) {
    const ch = formula[i]!;
    if (ch === '"' || ch === "'") {
      i = skipQuoted(formula, i);
      continue;
    }
    // A name starts where the previous character cannot continue an identifier.
    if (i > 0 && /[A-Za-z0-9_.]/.test(formula[i - 1]!)) continue;
    CALL.lastIndex = i;
    const m = CALL.exec(formula);
    if (!m) continue;
    const open = i + m[0].length;
    const { args } = splitArguments(formula, open);
    calls.push({ name: m[1]!.toUpperCase(), args });
  }
  return calls;
}

/** Index of the closing quote of the literal opening at `start` ("" and '' are escaped quotes). */
export function skipQuoted(text: string, start: number): number {
  const q = text[start]!;
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === q) {
      if (text[i + 1] === q) i += 2;
      else return i;
    } else i++;
  }
  return text.length;
}

/** The top-level arguments from just after an opening parenthesis to its closing one. */
function splitArguments(text: string, from: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let start = from;
  let i = from;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") i = skipQuoted(text, i);
    else if (ch === '(' || ch === '{') depth++;
    else if ((ch === ')' || ch === '}') && depth > 0) depth--;
    else if (ch === ')') break;
    else if (ch === ',' && depth === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start, i).trim();
  if (last !== '' || args.length > 0) args.push(last);
  return { args, end: i };
}

/** A cell or range an argument names: 0-based, sheet undefined for the formula's own sheet. */
export interface CellRef {
  sheet: string | undefined;
  row: number;
  column: number;
  rows: number;
  columns: number;
}

const REF = /^(?:('(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?\$?([A-Za-z]{1,3})\$?(\d{1,7})(?::\$?([A-Za-z]{1,3})\$?(\d{1,7}))?$/;

export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export function parseRef(arg: string): CellRef | undefined {
  const m = REF.exec(arg.trim());
  if (!m) return undefined;
  const sheet = m[1] === undefined ? undefined : m[1].startsWith("'") ? m[1].slice(1, -1).replace(/''/g, "'") : m[1];
  const r1 = Number(m[3]) - 1;
  const c1 = columnIndex(m[2]!);
  const r2 = m[5] === undefined ? r1 : Number(m[5]) - 1;
  const c2 = m[4] === undefined ? c1 : columnIndex(m[4]);
  return { sheet, row: Math.min(r1, r2), column: Math.min(c1, c2), rows: Math.abs(r2 - r1) + 1, columns: Math.abs(c2 - c1) + 1 };
}

/** `Sheet1!B2`, or `'Q3 holdings'!B2` when the name needs quoting. */
export function cellAddress(sheet: string, row: number, column: number): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) && !/^[A-Za-z]{1,3}\d+$/.test(sheet);
  return `${plain ? sheet : `'${sheet.replace(/'/g, "''")}'`}!${columnLetters(column)}${row + 1}`;
}

/** What an argument holds: a literal, the values of the cells it names, or unknown (an expression). */
export type ArgumentValue = { kind: 'value'; value: string | number | boolean | null } | { kind: 'cells'; values: unknown[][] } | { kind: 'unknown' };

/** Reads a cell's value: sheet, 0-based row and column; undefined when the pane did not read that cell. */
export type CellLookup = (sheet: string, row: number, column: number) => unknown;

export function argumentValue(arg: string | undefined, ownSheet: string, lookup: CellLookup): ArgumentValue {
  if (arg === undefined || arg === '') return { kind: 'value', value: null };
  if (/^"(?:[^"]|"")*"$/.test(arg)) return { kind: 'value', value: arg.slice(1, -1).replace(/""/g, '"') };
  if (/^-?\d+(?:\.\d+)?(?:E[+-]?\d+)?$/i.test(arg)) return { kind: 'value', value: Number(arg) };
  if (/^(TRUE|FALSE)$/i.test(arg)) return { kind: 'value', value: arg.toUpperCase() === 'TRUE' };
  const ref = parseRef(arg);
  if (!ref) return { kind: 'unknown' };
  const sheet = ref.sheet ?? ownSheet;
  const values: unknown[][] = [];
  for (let r = 0; r < ref.rows; r++) {
    const row: unknown[] = [];
    for (let c = 0; c < ref.columns; c++) row.push(lookup(sheet, ref.row + r, ref.column + c));
    values.push(row);
  }
  return { kind: 'cells', values };
}

/** The single value an argument stands for when it is a literal or names one cell; undefined otherwise. */
export function scalarArgument(arg: string | undefined, ownSheet: string, lookup: CellLookup): unknown {
  const v = argumentValue(arg, ownSheet, lookup);
  if (v.kind === 'value') return v.value;
  if (v.kind === 'cells' && v.values.length === 1 && v.values[0]!.length === 1) return v.values[0]![0];
  return undefined;
}
