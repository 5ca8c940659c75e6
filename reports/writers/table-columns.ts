/**
 * What every tabular writer needs to know of a column (the holdings table, the dashboard's
 * segment table), and `defineColumns`, which fills in what follows from the rest: the label
 * from the key ("asset_id" → "Asset id"), text as the kind, and the usual width of the kind.
 * A table then states only what is particular to each column.
 */

/** How a value is written: the CSV picks its decimals from it, the XLSX its number format, the PDF its text. */
// 'points' is a difference of two percentages in percentage points: shown as "+1.25 pts", never as a percent of anything.
export type ValueKind = 'int' | 'money' | 'percent' | 'points' | 'ratio' | 'rate' | 'text' | 'date' | 'bool';

export interface TableColumn<K extends string> {
  key: K;
  /** Heading for people (XLSX, PDF). The CSV and JSON use `key`. */
  label: string;
  kind: ValueKind;
  /** XLSX column width in characters. */
  width: number;
  /** What people read instead of the code (XLSX); CSV and JSON keep the code. */
  display?: (value: string) => string;
}

/** A column as a table states it: label, kind and width only where they differ from the defaults. */
export type ColumnSpec<C extends TableColumn<string>> = Omit<C, 'label' | 'kind' | 'width'> & Partial<Pick<C, 'label' | 'kind' | 'width'>>;

/** XLSX width in characters of a column of each kind, unless it says otherwise. */
const KIND_WIDTH: Record<ValueKind, number> = { int: 7, money: 15, percent: 9, points: 10, ratio: 11, rate: 12, text: 11, date: 12, bool: 10 };

/** "asset_id" → "Asset id". */
const labelOf = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');

export function defineColumns<C extends TableColumn<string>>(specs: readonly ColumnSpec<C>[]): readonly C[] {
  return specs.map((s) => {
    const kind = s.kind ?? 'text';
    return { ...s, label: s.label ?? labelOf(s.key), kind, width: s.width ?? KIND_WIDTH[kind] } as C;
  });
}
