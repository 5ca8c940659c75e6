/**
 * The pseudo-locale en-XA (tests and QA only): English with every Latin letter accented and
 * each message padded to 140 % of its length, made at run time from the English catalogue. A
 * hard-coded string shows as unaccented text, a box sized for English as overflow. Only the
 * message's literal text changes: placeholders, plural and select keys and tags stay intact.
 */
import { IntlMessageFormat } from 'intl-messageformat';

type Ast = ReturnType<IntlMessageFormat['getAst']>;

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...'àƀçđéƒĝĥíĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÍĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i]!]),
);

/** Every Latin letter of a text accented ("Holdings" → "Ĥöļđíñĝš"). */
export const accent = (text: string): string => text.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c);

// The element kinds of FormatJS's message AST (icu-messageformat-parser's TYPE) that hold text.
const LITERAL = 0;
const SELECT = 5;
const PLURAL = 6;
const TAG = 8;

interface Node {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Node[] }>;
  children?: Node[];
}

/** Accents the literal text of a message's elements, recursing into plural, select and tag branches. */
function accentAst(nodes: Node[]): Node[] {
  return nodes.map((n) => {
    if (n.type === LITERAL && typeof n.value === 'string') return { ...n, value: accent(n.value) };
    if ((n.type === PLURAL || n.type === SELECT) && n.options) {
      return { ...n, options: Object.fromEntries(Object.entries(n.options).map(([k, o]) => [k, { ...o, value: accentAst(o.value) }])) };
    }
    if (n.type === TAG && n.children) return { ...n, children: accentAst(n.children) };
    return n;
  });
}

/** The padding that lengthens a text of `length` characters to 140 %: "·" marks around it show where a message starts and ends. */
export function pad(length: number): string {
  const extra = Math.max(2, Math.ceil(length * 0.4));
  return '·'.repeat(extra);
}

/** The en-XA form of an English message, as an AST IntlMessageFormat takes. */
export function pseudoMessage(english: string): Ast {
  const ast = new IntlMessageFormat(english, 'en').getAst() as unknown as Node[];
  const extra = pad(english.length);
  const head = extra.slice(0, Math.floor(extra.length / 2));
  const tail = extra.slice(head.length);
  return [{ type: LITERAL, value: `[${head}` }, ...accentAst(ast), { type: LITERAL, value: `${tail}]` }] as unknown as Ast;
}
