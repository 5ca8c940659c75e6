import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildAddin } from '../../addin/build/build';
import { EXCEL_BRIDGE, EXCEL_WEB_HOST_INFO, writeExcelRuntimePages } from './browser-pages';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { startStack, type Stack } from './stack';
import type { AddinHostOptions } from '../../addin/server/host';

/**
 * The harness of the tests that run the built add-in under Microsoft's own runtime
 * (office.js + excel-web-16.00.js from @microsoft/office-js, only the Excel process stood in for
 * at the RichApi bridge: browser-pages.ts EXCEL_BRIDGE): the build, chromium, cells as Excel
 * invokes them, and a page per "workbook open" in a given browser context (a context is one
 * machine's storage).
 */
export interface SetResult {
  ok: boolean;
  value?: unknown;
  message?: string;
  /** The runtime's result error code: 1 #N/A, 7 #VALUE!. */
  errorCode?: number;
}
export interface Cell {
  name: string;
  args: unknown[];
  /** What Excel passes from the metadata: 1 cancelable, 2 streaming. */
  flags: number;
  address?: string;
}
export interface FunctionMeta {
  id: string;
  parameters: unknown[];
  options?: { stream?: boolean; cancelable?: boolean };
}

export const N_A = 1;
export const VALUE = 7;

/** A cell as Excel invokes it: every parameter present (omitted optional ones as null), flags from the metadata. */
export function cellOf(metadata: FunctionMeta[], name: string, args: unknown[], address?: string): Cell {
  const meta = metadata.find((f) => f.id === name);
  if (!meta) throw new Error(`no function ${name} in functions.json`);
  const full = meta.parameters.map((_, i) => (args[i] === undefined ? null : args[i]));
  const flags = (meta.options?.cancelable || meta.options?.stream ? 1 : 0) | (meta.options?.stream ? 2 : 0);
  return { name, args: full, flags, address };
}

/** A fresh build with the runtime pages beside it, its metadata, and chromium. */
export interface ExcelBuild {
  dist: string;
  metadata: FunctionMeta[];
  browser: Browser;
  cell(name: string, args: unknown[], address?: string): Cell;
  close(): Promise<void>;
}

export async function buildForExcel(name: string): Promise<ExcelBuild> {
  const dist = await mkdtemp(path.join(tmpdir(), `svc-addin-${name}-`));
  await buildAddin({ outDir: dist });
  await writeExcelRuntimePages(dist);
  const metadata = (JSON.parse(await readFile(path.join(dist, 'functions.json'), 'utf8')) as { functions: FunctionMeta[] }).functions;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  return {
    dist,
    metadata,
    browser,
    cell: (fn, args, address) => cellOf(metadata, fn, args, address),
    async close() {
      await browser.close();
      await rm(dist, { recursive: true, force: true });
    },
  };
}

/** What a test file of this harness works with, filled in before its tests run. */
export interface ExcelStack {
  build: ExcelBuild;
  /** The embedded sandbox and the add-in host in front of it, serving the build. */
  stack: Stack;
  /** Catalogue ids as the sandbox issued them. */
  ids: string[];
}

/**
 * Registers the file's setup and teardown: a build for Excel (then `prepare` on its folder),
 * the sandbox and host serving it (with `host`'s options besides), and `idCount` real catalogue ids.
 */
export function useExcelStack(name: string, idCount: number, prepare?: (dist: string) => Promise<void>, host?: Partial<AddinHostOptions>): ExcelStack {
  const env = {} as ExcelStack;
  beforeAll(async () => {
    env.build = await buildForExcel(name);
    await prepare?.(env.build.dist);
    env.stack = await startStack({ host: { ...host, distDir: env.build.dist } });
    env.ids = await realCatalogueIds(env.stack.sandboxUrl, env.stack.account, idCount);
  }, 180_000);
  afterAll(async () => {
    await env.build?.close();
    await env.stack?.close();
  });
  return env;
}

export interface ExcelPage {
  page: Page;
  frame: Frame;
  /** Every URL the page and its frame requested. */
  requested: string[];
  /** The bodies of the valuation batches the page sent to the host. */
  batches: string[];
  /** What the browser refused under the host's content-security policy. */
  violations: string[];
  invoke(cells: Cell[]): Promise<number[]>;
  /** The first result set for each invocation. */
  results(ids: number[]): Promise<SetResult[]>;
  /** Every result set for each invocation, once each has at least `count`. */
  resultsUpTo(ids: number[], count: number): Promise<SetResult[][]>;
  cancel(ids: number[]): Promise<void>;
  close(): Promise<void>;
}

/** Opens Excel on the web's stand-in page in `context` (a browser: its default context) and waits for the runtime to hold the functions. */
export async function openExcelIn(context: BrowserContext | Browser, hostUrl: string): Promise<ExcelPage> {
  const page = await context.newPage();
  const watched = watchPage(page);
  await page.goto(`${hostUrl}/excel-web.html`);
  const frame = await (await page.waitForSelector('#addin')).contentFrame();
  if (!frame) throw new Error('the add-in frame did not load');
  return excelOn(page, frame, watched);
}

/**
 * Opens the built entry page itself, top-level, as desktop Excel shows it (WebView2 on Windows,
 * WKWebView on the Mac: no Office frame around it), with the host information in the URL and
 * the stand-in for the Excel process (EXCEL_BRIDGE) in place before office.js loads. The page
 * is the one the manifest names, so the add-in's service worker serves it when the host is down.
 * `displayLanguage` is the culture Excel reports (de-DE, ja-JP…).
 */
export async function openEntryPageIn(context: BrowserContext, hostUrl: string, displayLanguage = 'en-US'): Promise<ExcelPage> {
  const page = await context.newPage();
  const watched = watchPage(page);
  // An init script, not a file beside the build: the page must be exactly what the build made.
  await page.addInitScript({ content: EXCEL_BRIDGE });
  // Excel's display language travels in the host information (its fourth field): office.js gives it as Office.context.displayLanguage.
  await page.goto(`${hostUrl}/taskpane.html?${EXCEL_WEB_HOST_INFO.replace('$en-US$', `$${displayLanguage}$`)}#&_xdm_Info=test-conversation$svc-addin$${encodeURIComponent(hostUrl)}&_serializer_version=1`);
  return excelOn(page, page.mainFrame(), watched);
}

function watchPage(page: Page): Pick<ExcelPage, 'requested' | 'batches' | 'violations'> {
  const watched = { requested: [] as string[], batches: [] as string[], violations: [] as string[] };
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) watched.violations.push(m.text());
  });
  page.on('request', (r) => {
    watched.requested.push(r.url());
    if (r.url().endsWith('/api/v1/valuations/batch')) watched.batches.push(r.postData() ?? '');
  });
  return watched;
}

/** Waits in `frame` for the runtime to hold the functions, then drives it. */
async function excelOn(page: Page, frame: Frame, watched: Pick<ExcelPage, 'requested' | 'batches' | 'violations'>): Promise<ExcelPage> {
  // Ready when the runtime holds our associations (it reads them when the first invocation arrives).
  await frame.waitForFunction(() => {
    const cf = (window as unknown as { CustomFunctions?: { _association?: { mappings?: Record<string, unknown> } } }).CustomFunctions;
    return cf?._association?.mappings !== undefined && Object.keys(cf._association.mappings).length > 0 && '_richApiNativeBridge' in window;
  });
  type W = { __invoke(c: Cell[]): number[]; __results(i: number[], n?: number): Promise<SetResult[][]>; __cancel(i: number[]): void };
  const resultsUpTo = (idList: number[], count: number) => frame.evaluate(([i, n]) => (window as unknown as W).__results(i, n), [idList, count] as const);
  return {
    page,
    frame,
    ...watched,
    invoke: (cells) => frame.evaluate((cs) => (window as unknown as W).__invoke(cs), cells),
    results: async (idList) => (await resultsUpTo(idList, 1)).map((r) => r[0]!),
    resultsUpTo,
    cancel: (idList) => frame.evaluate((i) => (window as unknown as W).__cancel(i), idList),
    close: () => page.close(),
  };
}

/**
 * The newest ExcelApi requirement set the Office JavaScript API the add-in is built against
 * documents: the highest `[Api set: ExcelApi 1.N]` in @types/office-js (the runtime files of
 * @microsoft/office-js carry no list of their own; they ask the host).
 */
export async function newestExcelApi(): Promise<string> {
  const typings = await readFile(path.join(process.cwd(), 'node_modules/@types/office-js/index.d.ts'), 'utf8');
  const minors = [...typings.matchAll(/\[Api set: ExcelApi 1\.(\d+)\]/g)].map((m) => Number(m[1]));
  if (minors.length === 0) throw new Error('no ExcelApi requirement set in @types/office-js');
  return `1.${Math.max(...minors)}`;
}

/**
 * The requirement sets come to office.js from the Excel process in the handshake the stand-in
 * does not perform (it answers only the RichApi bridge), so the test gives Office.context the
 * answer an Excel of that ExcelApi level ('1.15', '1.16', ...) gives: ExcelApi up to that
 * version (compared as major.minor: 1.9 is before 1.16), every other set, the runtime's own
 * RichApiRuntime among them, supported. Without any answer the add-in assumes no cards.
 */
export async function reportRequirementSets(frame: Frame, excelApi: string): Promise<void> {
  if (!/^1\.\d+$/.test(excelApi)) throw new Error(`ExcelApi level ${excelApi}: write it as 1.N`);
  await frame.evaluate((level) => {
    const atMost = (version: string) => {
      const [major = 0, minor = 0] = version.split('.').map(Number);
      const [topMajor = 0, topMinor = 0] = level.split('.').map(Number);
      return major < topMajor || (major === topMajor && minor <= topMinor);
    };
    const context = Office.context as unknown as { requirements?: unknown };
    context.requirements = { isSetSupported: (name: string, version?: string) => name !== 'ExcelApi' || atMost(version ?? '1.1') };
  }, excelApi);
}

/**
 * SVC.ASSET's result where cards are shown: its matrix is one cell holding the card (Excel shows
 * a 1×1 array as that cell's value). Fails on anything else, the spilled row of older builds included.
 */
export function cardOf(value: unknown): { type: string; text: string; properties: Record<string, { type: string; basicValue: unknown; numberFormat?: string }>; layouts: { card: { title: string; sections: { properties: string[] }[] } } } {
  if (!Array.isArray(value) || value.length !== 1 || !Array.isArray(value[0]) || value[0].length !== 1) throw new Error(`not a 1×1 matrix: ${JSON.stringify(value)?.slice(0, 200)}`);
  const card = value[0][0] as ReturnType<typeof cardOf>;
  if (card?.type !== 'Entity') throw new Error(`not an entity: ${JSON.stringify(card)?.slice(0, 200)}`);
  return card;
}

/** Invokes `cells` as a recalculation reaches the runtime (messages of 100 invocations) and waits for every first result. */
export async function recalculate(excel: ExcelPage, cells: Cell[]): Promise<SetResult[]> {
  const invocationIds: number[] = [];
  for (let b = 0; b < cells.length; b += 100) invocationIds.push(...(await excel.invoke(cells.slice(b, b + 100))));
  return excel.results(invocationIds);
}
