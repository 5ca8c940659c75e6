/**
 * What every tabular writer needs to know of a column (the holdings table, the dashboard's
 * segment table), and `defineColumns`, which fills in what follows from the rest: text as the
 * kind and the usual width of the kind. A table then states only what is particular to each
 * column. Labels are catalogue keys (the `columns` area, issue 36): `localiseColumns` gives them
 * in the reader's language.
 */
import { translator, type MessageKey, type Translator } from '../../src/i18n';

/** How a value is written: the CSV picks its decimals from it, the XLSX its number format, the PDF its text. */
// 'points' is a difference of two percentages in percentage points: shown as "+1.25 pts", never as a percent of anything.
export type ValueKind = 'int' | 'money' | 'percent' | 'points' | 'ratio' | 'rate' | 'text' | 'date' | 'bool';

export interface TableColumn<K extends string> {
  key: K;
  /** Heading for people (XLSX, PDF, the CSV's language header), in the language the columns were localised to. The JSON uses `key`. */
  label: string;
  /** The label's catalogue key. */
  labelKey: MessageKey;
  kind: ValueKind;
  /** XLSX column width in characters. */
  width: number;
  /** What people read instead of the code (XLSX), in the reader's language; CSV and JSON keep the code. */
  display?: (value: string, tr: Translator) => string;
}

/** A column as a table states it: label, kind and width only where they differ from the defaults. */
export type ColumnSpec<C extends TableColumn<string>> = Omit<C, 'label' | 'labelKey' | 'kind' | 'width'> & Partial<Pick<C, 'kind' | 'width'>> & { label: MessageKey };

/** XLSX width in characters of a column of each kind, unless it says otherwise. */
const KIND_WIDTH: Record<ValueKind, number> = { int: 7, money: 15, percent: 9, points: 10, ratio: 11, rate: 12, text: 11, date: 12, bool: 10 };

/** The columns with English labels (the house language); `localiseColumns` for another. */
export function defineColumns<C extends TableColumn<string>>(specs: readonly ColumnSpec<C>[]): readonly C[] {
  const en = translator('en');
  return specs.map((s) => {
    const kind = s.kind ?? 'text';
    return { ...s, labelKey: s.label, label: en.t(s.label), kind, width: s.width ?? KIND_WIDTH[kind] } as C;
  });
}

const localised = new WeakMap<readonly TableColumn<string>[], Map<string, readonly TableColumn<string>[]>>();

/** The columns with their labels in `tr`'s language, made once per table and language. */
export function localiseColumns<C extends TableColumn<string>>(columns: readonly C[], tr: Translator): readonly C[] {
  if (tr.lang === 'en') return columns;
  let byLang = localised.get(columns);
  if (!byLang) localised.set(columns, (byLang = new Map()));
  let out = byLang.get(tr.lang) as readonly C[] | undefined;
  if (!out) byLang.set(tr.lang, (out = columns.map((c) => ({ ...c, label: tr.t(c.labelKey) }))));
  return out;
}
