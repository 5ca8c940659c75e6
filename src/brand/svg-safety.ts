/**
 * What an SVG logo may contain before it is handed to the renderer (issue 35): the renderer
 * draws whatever a file refers to, so a logo could read a local file the brand's digest does not
 * cover (`<image href="../secret.png">`), fetch a URL, or cost minutes (hundreds of blurred
 * shapes, `<use>` nested to repeat a group millions of times). Checked on the parsed document
 * (saxes, a strict XML parser: entities and markup are decoded as the renderer decodes them), so
 * an escape or an entity cannot hide a reference.
 */
import { SaxesParser } from 'saxes';

export const SVG_LIMITS = {
  /** Elements in the file. */
  elements: 10_000,
  /** Elements once every `<use>` is expanded (the renderer copies what it refers to). */
  expanded: 50_000,
  /** Elements drawn through a filter, `<use>` expanded: each costs a pass over its area. */
  filtered: 8,
  /** A blur's standard deviation, in the SVG's own units. */
  blur: 10,
} as const;

interface Node {
  name: string;
  children: Node[];
  useOf?: string;
  filtered: boolean;
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Only the file's own fragments: url(#id), url('#id'), url("#id"). */
function externalUrl(value: string): boolean {
  const urls = value.match(/url\s*\(\s*(['"]?)([^'")]*)/gi) ?? [];
  return urls.some((u) => !/^url\s*\(\s*['"]?#/i.test(u)) || (/url\s*\(/i.test(value) && urls.length === 0);
}

/** CSS (a style attribute or a `<style>` element): no import, no reference out, no escapes that could spell one, no filter property (it could filter every shape at once). */
function cssProblem(css: string, where: string): string | undefined {
  if (/@import/i.test(css)) return `${where} uses @import; a logo may not load a style sheet`;
  if (css.includes('\\')) return `${where} uses a CSS escape (\\); write the style plainly`;
  if (externalUrl(css)) return `${where} refers with url() to something outside the file; only the file's own fragments (url(#id)) are allowed`;
  if (/(^|[;{\s])filter\s*:/i.test(css)) return `${where} sets a filter in CSS; use the filter attribute on the element (at most ${SVG_LIMITS.filtered} filtered elements)`;
  return undefined;
}

/** Undefined when the SVG may be rendered; otherwise why not, for the user (never quoting the file). */
export function svgProblem(text: string): string | undefined {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const byId = new Map<string, Node>();
  const stack: Node[] = [{ name: '#document', children: [], filtered: false }];
  let elements = 0;
  let inFilter = 0;
  let inStyle = 0;
  let problem: string | undefined;
  const at = () => `line ${parser.line}`;
  const refuse = (why: string) => {
    problem ??= why;
  };
  parser.on('doctype', () => refuse('declares a DOCTYPE (entities are not allowed in a logo)'));
  parser.on('processinginstruction', (pi) => {
    if (pi.target.toLowerCase() !== 'xml') refuse(`holds a processing instruction (${at()}); a logo may not load a style sheet or anything else`);
  });
  parser.on('opentag', (tag) => {
    if (problem) return;
    elements++;
    if (elements > SVG_LIMITS.elements) return refuse(`holds more than ${SVG_LIMITS.elements.toLocaleString('en-GB')} elements`);
    const name = local(tag.name);
    const node: Node = { name, children: [], filtered: false };
    stack.at(-1)!.children.push(node);
    stack.push(node);
    if (inFilter > 0 && name !== 'feGaussianBlur') refuse(`uses the filter effect <${name}> (${at()}); a logo's filters may only blur (feGaussianBlur)`);
    if (name === 'filter') inFilter++;
    if (name === 'style') inStyle++;
    for (const [attr, raw] of Object.entries(tag.attributes as Record<string, string>)) {
      const value = String(raw);
      const key = local(attr);
      if (key === 'href' && !value.trim().startsWith('#')) refuse(`<${name}> refers to a file, an address or embedded data (${attr}, ${at()}); a logo may refer only to its own fragments (#id)`);
      if (key === 'id') byId.set(value, node);
      if (key === 'href' && name === 'use') node.useOf = value.trim().slice(1);
      if (key === 'filter' && value.trim() !== 'none') node.filtered = true;
      if (key === 'style') {
        const css = cssProblem(value, `a style attribute (${at()})`);
        if (css) refuse(css);
      } else if (externalUrl(value) || /@import/i.test(value)) {
        refuse(`the ${attr} attribute of <${name}> (${at()}) refers with url() to something outside the file; only the file's own fragments (url(#id)) are allowed`);
      }
      if (name === 'feGaussianBlur' && key === 'stdDeviation') {
        const sigmas = value.trim().split(/[\s,]+/).map(Number);
        if (sigmas.some((s) => !Number.isFinite(s) || s > SVG_LIMITS.blur)) refuse(`blurs by more than ${SVG_LIMITS.blur} (stdDeviation, ${at()}); a logo's blur must be small`);
      }
    }
  });
  parser.on('closetag', (tag) => {
    stack.pop();
    const name = local(tag.name);
    if (name === 'filter') inFilter--;
    if (name === 'style') inStyle--;
  });
  const styleText = (text: string) => {
    if (inStyle === 0 || problem) return;
    const css = cssProblem(text, `a <style> element (${at()})`);
    if (css) refuse(css);
  };
  parser.on('text', styleText);
  parser.on('cdata', styleText);
  try {
    parser.write(text).close();
  } catch {
    return problem ?? `an SVG file that is not well-formed XML (near line ${parser.line}, column ${parser.column})`;
  }
  if (problem) return problem;
  return expansionProblem(stack[0]!, byId);
}

/** `<use>` copies what it refers to, its own children and further `<use>`s included: counted as the renderer would draw it. */
function expansionProblem(root: Node, byId: Map<string, Node>): string | undefined {
  const memo = new Map<Node, { elements: number; filtered: number }>();
  const visiting = new Set<Node>();
  const cap = (n: number) => Math.min(n, Number.MAX_SAFE_INTEGER);
  const count = (node: Node): { elements: number; filtered: number } => {
    const known = memo.get(node);
    if (known) return known;
    // A reference back to an element being expanded: the renderer refuses the loop; nothing is added.
    if (visiting.has(node)) return { elements: 0, filtered: 0 };
    visiting.add(node);
    let elements = 1;
    let filtered = node.filtered ? 1 : 0;
    const parts = [...node.children, ...(node.useOf !== undefined && byId.has(node.useOf) ? [byId.get(node.useOf)!] : [])];
    for (const part of parts) {
      const c = count(part);
      elements = cap(elements + c.elements);
      filtered = cap(filtered + c.filtered);
    }
    visiting.delete(node);
    const result = { elements, filtered };
    memo.set(node, result);
    return result;
  };
  const total = count(root);
  if (total.elements - 1 > SVG_LIMITS.expanded) return `draws more than ${SVG_LIMITS.expanded.toLocaleString('en-GB')} elements once its <use> references are expanded`;
  if (total.filtered > SVG_LIMITS.filtered) return `draws ${total.filtered > 1e6 ? 'more than a million' : total.filtered} elements through a filter; a logo may filter at most ${SVG_LIMITS.filtered}`;
  return undefined;
}
