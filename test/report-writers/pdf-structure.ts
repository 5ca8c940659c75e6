/**
 * Reads a PDF's tagging back independently of pdfkit: qpdf --json (objects with decoded
 * streams), then the structure tree is walked and every page's content stream tokenised, to
 * find what is marked, what is an artifact and what is neither.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const run = promisify(execFile);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Dict = Record<string, Json>;
interface Obj {
  value?: Json;
  stream?: { dict: Dict; data?: string };
}

export interface StructNode {
  type: string;
  alt?: string;
  scope?: string;
  children: StructNode[];
  /** Marked-content ids this element holds directly, as "page:mcid". */
  mcids: string[];
}

export interface PdfStructure {
  catalog: Dict;
  markedTrue: boolean;
  lang?: string;
  displayDocTitle: boolean;
  xmp: string;
  tree: StructNode[];
  /** Every element of the tree, depth first (document order). */
  elements: StructNode[];
  /** Text-showing operators per page that sit outside both an artifact and tagged content. */
  untaggedText: number;
  /** Painting operators (fills, strokes, images) outside both an artifact and tagged content. */
  untaggedPaint: number;
  /** Text-showing operators inside tagged content, in all. */
  taggedText: number;
  /** MCIDs used in content that no structure element points to. */
  orphanMcids: string[];
  attachments: { name: string; relationship?: string; subtype?: string }[];
  /** Catalog /AF entries. */
  associatedFiles: number;
}

export async function readStructure(file: string): Promise<PdfStructure> {
  const { stdout } = await run('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=generalized', file], { maxBuffer: 512 * 1024 * 1024 });
  const objects = (JSON.parse(stdout) as { qpdf: [unknown, Record<string, Obj>] }).qpdf[1];
  const get = (ref: Json | undefined): Json | undefined => {
    if (typeof ref === 'string' && /^\d+ \d+ R$/.test(ref)) {
      const o = objects[`obj:${ref}`];
      return o?.value ?? (o?.stream?.dict as Json | undefined);
    }
    return ref;
  };
  const streamText = (ref: Json | undefined): string => {
    const o = typeof ref === 'string' ? objects[`obj:${ref}`] : undefined;
    return o?.stream?.data ? Buffer.from(o.stream.data, 'base64').toString('latin1') : '';
  };
  const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v.replace(/^[ub]:/, '') : undefined);

  const catalogEntry = Object.values(objects).find((o) => (o.value as Dict | undefined)?.['/Type'] === '/Catalog');
  const catalog = catalogEntry!.value as Dict;
  const markInfo = get(catalog['/MarkInfo']) as Dict | undefined;
  const viewer = get(catalog['/ViewerPreferences']) as Dict | undefined;
  const xmp = Buffer.from(streamText(catalog['/Metadata']), 'latin1').toString('utf8');

  // Pages in order, each with its object ref.
  const pages: string[] = [];
  const walkPages = (ref: Json) => {
    const node = get(ref) as Dict;
    if (node['/Type'] === '/Pages') for (const kid of node['/Kids'] as Json[]) walkPages(kid);
    else pages.push(ref as string);
  };
  walkPages(catalog['/Pages']!);

  const elements: StructNode[] = [];
  const referenced = new Set<string>();
  const walk = (ref: Json, inheritedPage?: string): StructNode | undefined => {
    const d = get(ref) as Dict | undefined;
    if (!d || typeof d !== 'object' || Array.isArray(d)) return undefined;
    const page = (d['/Pg'] as string | undefined) ?? inheritedPage;
    const attrs = get(d['/A']) as Dict | undefined;
    const node: StructNode = { type: String(d['/S'] ?? '').replace(/^\//, ''), alt: str(d['/Alt']), scope: attrs ? String(attrs['/Scope'] ?? '').replace(/^\//, '') || undefined : undefined, children: [], mcids: [] };
    elements.push(node);
    const kids = d['/K'] === undefined ? [] : Array.isArray(d['/K']) ? d['/K'] : [d['/K']];
    for (const k of kids) {
      if (typeof k === 'number') {
        node.mcids.push(`${page}:${k}`);
        referenced.add(`${page}:${k}`);
      } else {
        const kd = get(k) as Dict;
        if (kd && kd['/Type'] === '/MCR') {
          const id = `${(kd['/Pg'] as string | undefined) ?? page}:${kd['/MCID']}`;
          node.mcids.push(id);
          referenced.add(id);
        } else {
          const child = walk(k, page);
          if (child) node.children.push(child);
        }
      }
    }
    return node;
  };
  const root = get(catalog['/StructTreeRoot']) as Dict | undefined;
  const rootKids = root?.['/K'] === undefined ? [] : Array.isArray(root['/K']) ? root['/K'] : [root['/K']];
  const tree = rootKids.map((k) => walk(k)).filter((n): n is StructNode => n !== undefined);

  let untaggedText = 0;
  let untaggedPaint = 0;
  let taggedText = 0;
  const orphans: string[] = [];
  for (const pageRef of pages) {
    const page = get(pageRef) as Dict;
    const contents = Array.isArray(page['/Contents']) ? page['/Contents'] : [page['/Contents']!];
    const content = contents.map(streamText).join('\n');
    // Marked-content stack: 'artifact', 'mcid:<n>' or 'other'.
    const stack: string[] = [];
    const state = () => (stack.includes('artifact') ? 'artifact' : stack.some((s) => s.startsWith('mcid:')) ? 'tagged' : 'none');
    let operands: string[] = [];
    for (const tok of tokens(content)) {
      if (!/^[A-Za-z'"*]+$/.test(tok) || tok === 'true' || tok === 'false' || tok === 'null') {
        operands.push(tok);
        continue;
      }
      if (tok === 'BDC' || tok === 'BMC') {
        const tag = operands.find((o) => o.startsWith('/'));
        const props = operands.join(' ');
        const mcid = /\/MCID\s+(\d+)/.exec(props)?.[1];
        if (tag === '/Artifact') stack.push('artifact');
        else if (mcid !== undefined) {
          stack.push(`mcid:${mcid}`);
          if (!referenced.has(`${pageRef}:${mcid}`)) orphans.push(`${pageRef}:${mcid}`);
        } else stack.push('other');
      } else if (tok === 'EMC') stack.pop();
      else if (tok === 'Tj' || tok === 'TJ' || tok === "'" || tok === '"') {
        const s = state();
        if (s === 'none') untaggedText++;
        if (s === 'tagged') taggedText++;
      } else if (['f', 'F', 'f*', 'S', 's', 'B', 'B*', 'b', 'b*', 'sh', 'Do'].includes(tok)) {
        if (state() === 'none') untaggedPaint++;
      }
      operands = [];
    }
  }

  const names = get(catalog['/Names']) as Dict | undefined;
  const embedded = (get(names?.['/EmbeddedFiles']) as Dict | undefined)?.['/Names'] as Json[] | undefined;
  const attachments: PdfStructure['attachments'] = [];
  for (let i = 0; embedded && i < embedded.length; i += 2) {
    const spec = get(embedded[i + 1]) as Dict;
    const ef = get((spec['/EF'] as Dict)['/F']) as Dict;
    attachments.push({ name: str(embedded[i])!, relationship: String(spec['/AFRelationship'] ?? '').replace(/^\//, ''), subtype: ef?.['/Subtype'] as string | undefined });
  }
  return {
    catalog,
    markedTrue: markInfo?.['/Marked'] === true,
    lang: str(catalog['/Lang']),
    displayDocTitle: viewer?.['/DisplayDocTitle'] === true,
    xmp,
    tree,
    elements,
    untaggedText,
    untaggedPaint,
    taggedText,
    orphanMcids: orphans,
    attachments,
    associatedFiles: Array.isArray(catalog['/AF']) ? catalog['/AF'].length : 0,
  };
}

/** PDF content-stream tokens: strings, hex strings, dictionaries' brackets, names, numbers and operators. */
function* tokens(s: string): Generator<string> {
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '%') while (i < s.length && s[i] !== '\n') i++;
    else if (c === '(') {
      let depth = 0;
      const start = i;
      for (; i < s.length; i++) {
        if (s[i] === '\\') i++;
        else if (s[i] === '(') depth++;
        else if (s[i] === ')' && --depth === 0) break;
      }
      i++;
      yield s.slice(start, i);
    } else if (s.startsWith('<<', i) || s.startsWith('>>', i)) {
      yield s.slice(i, i + 2);
      i += 2;
    } else if (c === '<') {
      const end = s.indexOf('>', i);
      yield s.slice(i, end + 1);
      i = end + 1;
    } else if (c === '[' || c === ']' || c === '{' || c === '}') {
      yield c;
      i++;
    } else {
      const start = i;
      i++;
      while (i < s.length && !/[\s()<>[\]{}/%]/.test(s[i]!)) i++;
      yield s.slice(start, i);
    }
  }
}

/** The checks every report PDF passes: PDF/A-3a + PDF/UA-1 identification, complete tagging. */
export function expectArchivalAndTagged(s: PdfStructure, lang: string, options: { logoAlt?: string } = {}): void {
  expect(s.markedTrue).toBe(true);
  expect(s.lang).toBe(lang);
  expect(s.displayDocTitle).toBe(true);
  expect(s.xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
  expect(s.xmp).toMatch(/<pdfaid:conformance>A<\/pdfaid:conformance>/);
  expect(s.xmp).toMatch(/<pdfuaid:part>1<\/pdfuaid:part>/);
  expect(s.xmp).toMatch(/<pdfaSchema:prefix>pdfuaid<\/pdfaSchema:prefix>/);
  expect(s.tree.map((n) => n.type)).toEqual(['Document']);
  // Every text run and every painted shape is tagged content or an artifact.
  expect(s.taggedText).toBeGreaterThan(50);
  expect(s.untaggedText).toBe(0);
  expect(s.untaggedPaint).toBe(0);
  expect(s.orphanMcids).toEqual([]);
  // Charts say what they show; a firm's logo (issue 28) is named by the firm's name.
  for (const f of s.elements.filter((e) => e.type === 'Figure')) {
    if (options.logoAlt !== undefined && f.alt === options.logoAlt) continue;
    expect(f.alt ?? '').toMatch(/chart: .{20,}/);
  }
  const headerCells = s.elements.filter((e) => e.type === 'TH');
  expect(headerCells.length).toBeGreaterThan(0);
  for (const th of headerCells) expect(['Column', 'Row']).toContain(th.scope);
}
