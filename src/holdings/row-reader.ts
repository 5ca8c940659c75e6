/** A row's validation helpers, shared by holdings, transactions and cover cells (cover.ts). */
import { cellText, type Read } from './cells';
import type { RawRecord, RowProblem } from './types';
import { keepLines, singleLine } from '../single-line';
import { findControlCharacter } from '../wire/primitives';
import { printable } from '../printable';
import { aboutField, englishReason, rowReason, type RowReason } from './row-reasons';

/** The helpers a row's validation shares: problems by field, texts on one line, reads with their reasons. */
export interface RowReader {
  problems: RowProblem[];
  /** A reason as a catalogue message (row-reasons.ts) where there is one, else its English. */
  problem(field: string, reason: string | RowReason, value?: unknown): void;
  /** True when one of the fields already has a problem. */
  refused(...fields: string[]): boolean;
  /** A text cell: line breaks and tabs folded (kept as lines with linesKept), control characters and lengths over max refused. */
  text(field: string, max: number, linesKept?: boolean): string | undefined;
  /** A read value, or undefined after a problem naming the field (the read's own reason, else `reason`). */
  check<T>(field: string, read: Read<T>, reason: string | RowReason): T | undefined;
}

export function rowReader(record: RawRecord, portfolio: string): RowReader {
  const v = record.values;
  const problems: RowProblem[] = [];
  const problem = (field: string, reason: string | RowReason, value?: unknown) => {
    problems.push({
      portfolio,
      file: record.source.file,
      sheet: record.source.sheet,
      row: record.source.row,
      field,
      value: cellText(value),
      ...(typeof reason === 'string' ? { reason } : { reason: englishReason(reason), said: reason }),
    });
  };
  // Line breaks and tabs in a name are formatting (Alt+Enter in Excel): one space. Notes keep their lines.
  const text = (field: string, max: number, linesKept = false): string | undefined => {
    const raw = cellText(v[field]);
    if (raw === undefined) return undefined;
    const t = linesKept ? keepLines(raw) : singleLine(raw);
    const control = controlCharacterReason(field, t, linesKept);
    if (control) {
      problem(field, control, printable(t.slice(0, 40)));
      return undefined;
    }
    if (t.length > max) {
      problem(field, rowReason('holdings.too_long', { field, max: String(max) }), t.slice(0, 40));
      return undefined;
    }
    return t === '' ? undefined : t;
  };
  const check = <T>(field: string, read: Read<T>, reason: string | RowReason): T | undefined => {
    if (read && 'error' in read) {
      problem(field, read.reason ? aboutField(read.reason, field) : reason, v[field]);
      return undefined;
    }
    return read?.value;
  };
  return { problems, problem, refused: (...fields) => problems.some((p) => fields.includes(p.field)), text, check };
}

/** Why a normalised text is still refused: a control character that is not whitespace, and where. */
function controlCharacterReason(field: string, text: string, linesKept: boolean): RowReason | undefined {
  const found = findControlCharacter(linesKept ? text.replace(/\n/g, ' ') : text);
  if (!found) return undefined;
  const values = { field, codePoint: found.codePoint, position: String(found.index + 1) };
  return rowReason(linesKept ? 'holdings.control_character_lines' : 'holdings.control_character', values);
}
