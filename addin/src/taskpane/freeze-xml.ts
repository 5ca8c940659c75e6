import { cellAddress } from './svc-formulas';
import { freezeError, type FrozenCell, type Scalar } from './freeze-plan';
import type { MessageKey, MessageValues } from '../../../src/i18n';
import { addinTranslator } from '../shared/display-language';

/**
 * The custom XML part that keeps frozen formulas in the workbook (workbook.customXmlParts):
 * our own namespace, one <cell> per frozen formula, the formula as element text so it comes
 * back byte for byte. Pure string work, so it runs the same in the pane and in Node.
 */
export const FROZEN_NAMESPACE = 'urn:svc-luxury-valuations:frozen-formulas:1';

/**
 * What one frozen-formula part may hold, written or read: the writer refuses to go past these and
 * the reader refuses a part that does, before building anything from it. A part comes with the
 * workbook, so whoever sent the file wrote it (docs/security.md); without bounds a part declaring
 * 1,048,576 × 16,384 cells ran the pane out of memory.
 */
export const FROZEN_LIMITS = {
  /** Frozen formulas in one workbook: far above any workbook the add-in is tested with (1,250). */
  formulas: 50_000,
  /** Cells of their blocks together (a spilled block counts each cell): each carries its format in the part. */
  cells: 500_000,
  /** The part's text: what the two bounds above take with long formulas. */
  chars: 32_000_000,
} as const;

/** Excel's grid: a block must lie inside it. */
const EXCEL_ROWS = 1_048_576;
const EXCEL_COLUMNS = 16_384;

/** Characters XML 1.0 cannot carry at all, even escaped (a formula never holds them; refuse rather than lose them). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function text(s: string): string {
  // \r is escaped so a parser's line-end normalisation cannot turn \r\n into \n.
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function attr(s: string): string {
  // Tabs and line ends in attributes would be normalised to spaces: escaped, they survive.
  return text(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

/** Every text of a frozen cell: what the writer refuses control characters in, and the reader too. */
const textsOf = (c: FrozenCell) => [c.sheet, c.formula, String(c.value), c.currency, c.assetId, c.asOf, ...c.formats.flat()];

function checkXmlSafe(cell: FrozenCell, s: string): void {
  if (NOT_XML.test(s)) throw freezeError('addin.freeze_control_character', { cell: cellAddress(cell.sheet, cell.row, cell.column) });
}


function scalarAttrs(v: Scalar): string {
  return `type="${typeof v}" value="${attr(String(v))}"`;
}

export function serializeFrozen(cells: readonly FrozenCell[], frozenAt: Date): string {
  const blockCells = cells.reduce((n, c) => n + c.rows * c.columns, 0);
  if (cells.length > FROZEN_LIMITS.formulas || blockCells > FROZEN_LIMITS.cells) {
    throw freezeError('addin.freeze_too_many', { maxFormulas: FROZEN_LIMITS.formulas, maxCells: FROZEN_LIMITS.cells, formulas: cells.length, cells: blockCells });
  }
  const lines = [`<?xml version="1.0" encoding="UTF-8"?>`, `<frozen xmlns="${FROZEN_NAMESPACE}" version="1" frozenAt="${frozenAt.toISOString()}">`];
  for (const c of cells) {
    for (const s of textsOf(c)) checkXmlSafe(c, s);
    lines.push(
      `  <cell sheet="${attr(c.sheet)}" row="${c.row}" column="${c.column}" rows="${c.rows}" columns="${c.columns}" ${scalarAttrs(c.value)} currency="${attr(c.currency)}" assetId="${attr(c.assetId)}" asOf="${attr(c.asOf)}">`,
      `    <formula>${text(c.formula)}</formula>`,
      ...c.formats.map((row) => `    <formats>${row.map((f) => `<f>${text(f)}</f>`).join('')}</formats>`),
      `  </cell>`,
    );
  }
  lines.push('</frozen>', '');
  const xml = lines.join('\n');
  if (xml.length > FROZEN_LIMITS.chars) throw freezeError('addin.freeze_too_long', { chars: xml.length, max: FROZEN_LIMITS.chars });
  return xml;
}

// ---- parsing (our own documents only: elements, attributes, text, character and the five named entities)

interface Element {
  name: string;
  attrs: Map<string, string>;
  children: Element[];
  text: string;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    const named = NAMED[e];
    if (named === undefined) throw new Error(`unknown entity ${m}`);
    return named;
  });
}

/** Line ends as an XML parser normalises them (literal \r\n and \r become \n; escaped ones stay). */
const normaliseLineEnds = (s: string) => s.replace(/\r\n?/g, '\n');

const TOKEN = /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<\/([\w:.-]+)\s*>|<([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/gy;
const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function parseXml(xml: string): Element {
  const root: Element = { name: '#document', attrs: new Map(), children: [], text: '' };
  const stack: Element[] = [root];
  TOKEN.lastIndex = 0;
  const source = normaliseLineEnds(xml.replace(/^\uFEFF/, ''));
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m) throw new Error(`not well-formed at character ${at}`);
    const [, close, open, attrText, selfClosing, chars] = m;
    const top = stack[stack.length - 1]!;
    if (close !== undefined) {
      if (top.name !== close) throw new Error(`</${close}> closes <${top.name}>`);
      stack.pop();
    } else if (open !== undefined) {
      const el: Element = { name: open, attrs: new Map(), children: [], text: '' };
      for (const a of (attrText ?? '').matchAll(ATTR)) el.attrs.set(a[1]!, decode((a[2] ?? a[3] ?? '').replace(/[\t\n]/g, ' ')));
      top.children.push(el);
      if (selfClosing !== '/') stack.push(el);
    } else if (chars !== undefined) {
      top.text += decode(chars);
    }
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]!.name}> is not closed`);
  return root;
}

function localName(name: string): string {
  return name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
}

function scalarOf(type: string | undefined, value: string): Scalar {
  if (type === 'number') return Number(value);
  if (type === 'boolean') return value === 'true';
  return value;
}

/** The part is not one SVC wrote, with what is wrong (one of the `damaged_*` messages) in the user's language. */
const damaged = (key: MessageKey, values: MessageValues) => freezeError('addin.frozen_damaged', { detail: addinTranslator().t(key, values) });

function intAttr(el: Element, name: string): number {
  const v = Number(el.attrs.get(name));
  if (!Number.isSafeInteger(v) || v < 0) throw damaged('addin.damaged_attribute', { element: '<cell>', name });
  return v;
}

/** A frozen cell as read, checked as the writer checks what it writes: inside Excel's grid, formats for each of its cells, no character the writer refuses. */
function checkRead(cell: FrozenCell): FrozenCell {
  const at = { row: cell.row + 1, column: cell.column + 1 };
  if (cell.rows < 1 || cell.columns < 1 || cell.row + cell.rows > EXCEL_ROWS || cell.column + cell.columns > EXCEL_COLUMNS) {
    throw damaged('addin.damaged_grid', { rows: cell.rows, columns: cell.columns, ...at });
  }
  if (cell.formats.length !== cell.rows || cell.formats.some((line) => line.length !== cell.columns)) throw damaged('addin.damaged_formats', at);
  if (!cell.formula.startsWith('=')) throw damaged('addin.damaged_no_formula', at);
  if (textsOf(cell).some((t) => NOT_XML.test(t))) throw damaged('addin.damaged_control', at);
  return cell;
}

/** Reads a part written by serializeFrozen. Throws naming what is wrong when it is not ours, is damaged, or is larger than SVC writes. */
export function parseFrozen(xml: string): FrozenCell[] {
  if (xml.length > FROZEN_LIMITS.chars) throw damaged('addin.damaged_chars', { chars: xml.length, max: FROZEN_LIMITS.chars });
  let doc: Element;
  try {
    doc = parseXml(xml);
  } catch (err) {
    throw freezeError('addin.frozen_unreadable', { detail: (err as Error).message });
  }
  const root = doc.children.find((e) => localName(e.name) === 'frozen');
  const ns = root && [...root.attrs].find(([k]) => k === 'xmlns' || k.startsWith('xmlns:'))?.[1];
  if (!root || ns !== FROZEN_NAMESPACE) throw freezeError('addin.frozen_not_ours', { namespace: FROZEN_NAMESPACE });
  const elements = root.children.filter((e) => localName(e.name) === 'cell');
  if (elements.length > FROZEN_LIMITS.formulas) throw damaged('addin.damaged_formulas', { count: elements.length, max: FROZEN_LIMITS.formulas });
  // Dimensions are checked before any block is built from them: a declared size costs nothing until then.
  let blockCells = 0;
  for (const el of elements) {
    const [rows, columns] = [intAttr(el, 'rows'), intAttr(el, 'columns')];
    blockCells += rows * columns;
    if (blockCells > FROZEN_LIMITS.cells) throw damaged('addin.damaged_block', { rows, columns, max: FROZEN_LIMITS.cells });
  }
  return elements.map((el) => {
    const formula = el.children.find((e) => localName(e.name) === 'formula');
    if (!formula) throw freezeError('addin.frozen_no_formula');
    return checkRead({
      sheet: el.attrs.get('sheet') ?? '',
      row: intAttr(el, 'row'),
      column: intAttr(el, 'column'),
      rows: intAttr(el, 'rows'),
      columns: intAttr(el, 'columns'),
      formula: formula.text,
      formats: el.children.filter((e) => localName(e.name) === 'formats').map((r) => r.children.map((f) => f.text)),
      value: scalarOf(el.attrs.get('type'), el.attrs.get('value') ?? ''),
      currency: el.attrs.get('currency') ?? '',
      assetId: el.attrs.get('assetId') ?? '',
      asOf: el.attrs.get('asOf') ?? '',
    });
  });
}
