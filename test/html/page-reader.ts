/** The written page read back by Python's html.parser (read-page.py): an independent reader, no DOM of ours. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PageCell {
  tag: 'td' | 'th';
  attrs: Record<string, string | null>;
  text: string;
}
export interface PageTable {
  id: string | null;
  caption: string;
  head: PageCell[][];
  rows: PageCell[][];
  foot: PageCell[][];
}
export interface ReadPage {
  doctype: string | null;
  lang: string | null;
  dir: string | null;
  elements: { tag: string; attrs: [string, string | null][] }[];
  headings: [string, string][];
  tables: PageTable[];
  style: string[];
  script: string[];
  text: string;
  ids: Record<string, string>;
}

export async function readPage(file: string): Promise<ReadPage> {
  const { stdout } = await run('python3', [path.join(path.dirname(fileURLToPath(import.meta.url)), 'read-page.py'), file], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as ReadPage;
}

/** Every attribute of every element, as [tag, name, value]. */
export const attributesOf = (page: ReadPage): [string, string, string][] => page.elements.flatMap((e) => e.attrs.map(([n, v]) => [e.tag, n, v ?? ''] as [string, string, string]));

/** The cell of a row under the column headed `label` (the cells' data-label). */
export const cellUnder = (row: PageCell[], label: string): PageCell | undefined => row.find((c) => c.attrs['data-label'] === label);
