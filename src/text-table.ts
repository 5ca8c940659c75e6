/**
 * Reference data written as a table of text rather than as one object literal a line: a header
 * line names the columns, then one row a line, cells separated by `|` and trimmed. Blank lines
 * and lines starting with `#` (notes) are skipped. Each table has one builder that turns a row
 * into its typed record, so a table reads as data and its shape is written once.
 */
export class TextTableRow {
  constructor(
    /** Where the row stands in the table's text (1-based), so errors can name it. */
    readonly line: number,
    private readonly cells: ReadonlyMap<string, string>,
  ) {}

  /** The cell under `column`, '' where the row leaves it empty. */
  text(column: string): string {
    const cell = this.cells.get(column);
    if (cell === undefined) throw new Error(`table line ${this.line}: no column "${column}" (columns: ${[...this.cells.keys()].join(', ')})`);
    return cell;
  }

  /** Whether the table has the column and this row fills it. */
  given(column: string): boolean {
    return (this.cells.get(column) ?? '') !== '';
  }

  /** The cell's words (split on spaces, or on `separator`), none for an empty cell. */
  words(column: string, separator: string | RegExp = /\s+/): string[] {
    const cell = this.text(column);
    return cell === '' ? [] : cell.split(separator);
  }

  /** A number; digits may be grouped with `_` as in source. */
  number(column: string): number {
    return this.toNumber(column, this.text(column));
  }

  /** Each word of the cell as a number ("1 2 3", or "50x70" split on "x"). */
  numbers(column: string, separator?: string): number[] {
    return this.words(column, separator).map((word) => this.toNumber(column, word));
  }

  /** "2004-2008" -> [2004, 2008]; a single number stands for both ends ("2004" -> [2004, 2004]). */
  range(column: string, separator: string): [number, number] {
    const [from, to, ...extra] = this.numbers(column, separator);
    if (from === undefined || extra.length > 0) throw this.error(column, `"${this.text(column)}" is not one number or two separated by "${separator}"`);
    return [from, to ?? from];
  }

  /** Each word of the cell, every one of them one of `allowed`. */
  eachOf<T extends string>(column: string, allowed: readonly T[]): T[] {
    return this.words(column).map((word) => this.allowed(column, word, allowed));
  }

  /** The cell, one of `allowed`. */
  oneOf<T extends string>(column: string, allowed: readonly T[]): T {
    return this.allowed(column, this.text(column), allowed);
  }

  private toNumber(column: string, text: string): number {
    const value = text === '' ? NaN : Number(text.replaceAll('_', ''));
    if (!Number.isFinite(value)) throw this.error(column, `"${text}" is not a number`);
    return value;
  }

  private allowed<T extends string>(column: string, text: string, allowed: readonly T[]): T {
    if (!(allowed as readonly string[]).includes(text)) throw this.error(column, `"${text}" is not one of ${allowed.join(', ')}`);
    return text as T;
  }

  private error(column: string, problem: string): Error {
    return new Error(`table line ${this.line}, column "${column}": ${problem}`);
  }
}

export function parseTextTable(text: string): TextTableRow[] {
  const lines = text.split('\n').map((raw, i) => ({ line: i + 1, raw: raw.trim() }));
  const content = lines.filter(({ raw }) => raw !== '' && !raw.startsWith('#'));
  const [header, ...rows] = content;
  if (!header) return [];
  const columns = split(header.raw);
  return rows.map(({ line, raw }) => {
    const cells = split(raw);
    if (cells.length !== columns.length) throw new Error(`table line ${line}: ${cells.length} cells, the header names ${columns.length} (${columns.join(', ')})`);
    return new TextTableRow(line, new Map(columns.map((c, i) => [c, cells[i]!])));
  });
}

function split(line: string): string[] {
  return line.split('|').map((cell) => cell.trim());
}
