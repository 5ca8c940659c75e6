import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';

/**
 * The excel-runtime.test.ts harness (Microsoft's office.js + excel-web-16.00.js, the Excel
 * process stood in for at the RichApi bridge: browser-pages.ts), opened in a given browser
 * context so two "workbook opens" can share the machine's storage.
 */
export interface SetResult {
  ok: boolean;
  value?: unknown;
  message?: string;
  errorCode?: number;
}
export interface Cell {
  name: string;
  args: unknown[];
  flags: number;
  address?: string;
}
export interface FunctionMeta {
  id: string;
  parameters: unknown[];
  options?: { stream?: boolean; cancelable?: boolean };
}

export async function readMetadata(dist: string): Promise<FunctionMeta[]> {
  return (JSON.parse(await readFile(path.join(dist, 'functions.json'), 'utf8')) as { functions: FunctionMeta[] }).functions;
}

/** A cell as Excel invokes it: every parameter present (omitted optional ones as null), flags from the metadata. */
export function cellOf(metadata: FunctionMeta[], name: string, args: unknown[], address?: string): Cell {
  const meta = metadata.find((f) => f.id === name);
  if (!meta) throw new Error(`no function ${name} in functions.json`);
  const full = meta.parameters.map((_, i) => (args[i] === undefined ? null : args[i]));
  const flags = (meta.options?.cancelable || meta.options?.stream ? 1 : 0) | (meta.options?.stream ? 2 : 0);
  return { name, args: full, flags, address };
}

export interface ExcelPage {
  page: Page;
  frame: Frame;
  /** Every URL the page and its frame requested. */
  requested: string[];
  invoke(cells: Cell[]): Promise<number[]>;
  results(ids: number[]): Promise<SetResult[]>;
  close(): Promise<void>;
}

export async function openExcelIn(context: BrowserContext, hostUrl: string): Promise<ExcelPage> {
  const page = await context.newPage();
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(`${hostUrl}/excel-web.html`);
  const frame = await (await page.waitForSelector('#addin')).contentFrame();
  if (!frame) throw new Error('the add-in frame did not load');
  await frame.waitForFunction(() => {
    const cf = (window as unknown as { CustomFunctions?: { _association?: { mappings?: Record<string, unknown> } } }).CustomFunctions;
    return cf?._association?.mappings !== undefined && Object.keys(cf._association.mappings).length > 0 && '_richApiNativeBridge' in window;
  });
  type W = { __invoke(c: Cell[]): number[]; __results(i: number[], n?: number): Promise<SetResult[][]> };
  return {
    page,
    frame,
    requested,
    invoke: (cells) => frame.evaluate((cs) => (window as unknown as W).__invoke(cs), cells),
    results: async (ids) => (await frame.evaluate((i) => (window as unknown as W).__results(i, 1), ids)).map((r) => r[0]!),
    close: () => page.close(),
  };
}
