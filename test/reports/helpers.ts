import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { startSandbox, type AccountConfig } from '../../src/sandbox';
import { commandArgs } from '../../fixtures/commands';
import { TEXT_LOGS } from '../../fixtures/spawned';

export const ROOT = resolve(import.meta.dirname, '../..');
/** node's arguments that run svc-report from its source. */
export const CLI_ARGS = commandArgs('svc-report');
/** Fixed generated_at for every run, so reports of separate runs can be compared whole. */
export const SOURCE_DATE_EPOCH = '1793491200';

export function tempDir(prefix = 'svc-report-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestSandbox {
  url: string;
  logFile: string;
  close(): Promise<void>;
  /** Request log lines so far (waits until the log stops growing: lines are written asynchronously). */
  log(): Promise<{ path: string; method: string; status: number; items?: number; client_id?: string }[]>;
}

export async function testSandbox(opts: { minuteMs?: number; accounts?: AccountConfig[] } = {}): Promise<TestSandbox> {
  const dir = tempDir('svc-report-sandbox-');
  const logFile = join(dir, 'requests.jsonl');
  const sb = await startSandbox({ port: 0, quiet: true, logFile, minuteMs: opts.minuteMs, accounts: opts.accounts });
  const read = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
  return {
    url: sb.url,
    logFile,
    close: () => sb.close(),
    log: async () => {
      let last = -1;
      let lines = read();
      while (lines.length !== last) {
        last = lines.length;
        await new Promise((r) => setTimeout(r, 60));
        lines = read();
      }
      return lines;
    },
  };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function serviceEnv(sb: { url: string }, account = 'demo-enterprise'): NodeJS.ProcessEnv {
  return { SVC_BASE_URL: sb.url, SVC_CLIENT_ID: account, SVC_CLIENT_SECRET: `${account}-secret`, SVC_SANDBOX: '1' };
}

/** Spawns the real command from its source: svc-report ARGS. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, SVC_DB_URL: process.env.SVC_DB_URL, XDG_DATA_HOME: process.env.XDG_DATA_HOME, SOURCE_DATE_EPOCH, ...TEXT_LOGS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolveDone) => child.on('close', (code, signal) => resolveDone({ code, signal, stdout, stderr })));
  return { child, done };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): Promise<CliResult> {
  return startCli(args, env, cwd).done;
}

// ---------------------------------------------------------------------------------------------
// Holdings files

const WATCHES: [string, string, string, number][] = [
  ['Rolex', 'Submariner Date', '126610LN', 14_500],
  ['Rolex', 'Cosmograph Daytona', '116500LN', 29_000],
  ['Patek Philippe', 'Nautilus', '5711/1A-010', 115_000],
  ['Audemars Piguet', 'Royal Oak Selfwinding', '15500ST.OO.1220ST.01', 41_000],
  ['Omega', 'Speedmaster Moonwatch Professional', '310.30.42.50.01.001', 6_900],
  ['Cartier', 'Santos de Cartier Large', 'WSSA0018', 7_200],
  ['Tudor', 'Black Bay Fifty-Eight', 'M79030N-0001', 3_700],
];

export const HEADER = 'segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency,notes';

/** n valid watch holdings as CSV lines (deterministic). */
export function watchRows(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const [brand, model, ref, price] = WATCHES[i % WATCHES.length]!;
    const year = 2015 + (i % 9);
    return `watches,${brand},${model},${ref},${year},very_good,1,${Math.round(price * (0.7 + (i % 5) * 0.05))},20${16 + (i % 8)}-0${1 + (i % 9)}-1${i % 10},USD,lot ${i + 1}`;
  });
}

export function csvFile(lines: string[]): string {
  return [HEADER, ...lines].join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Reading reports back

export function reportFiles(dir: string, slug: string): Record<'xlsx' | 'csv' | 'json' | 'pdf', string> {
  const names = readdirSync(dir);
  const find = (ext: string) => {
    const n = names.find((f) => f.startsWith(`${slug}-`) && f.endsWith(`.${ext}`));
    if (!n) throw new Error(`no ${ext} report for ${slug} in ${dir}: ${names.join(', ')}`);
    return join(dir, n);
  };
  return { xlsx: find('xlsx'), csv: find('csv'), json: find('json'), pdf: find('pdf') };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

export function readCsv(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), { columns: true, bom: true, skip_empty_lines: true });
}

export function pdfText(path: string): string {
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
}

export async function readXlsx(path: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

/** A sheet as rows of plain values (formula results and rich text unwrapped). */
export function sheetValues(wb: ExcelJS.Workbook, name: string): unknown[][] {
  const ws = wb.getWorksheet(name);
  if (!ws) throw new Error(`no sheet ${name}; sheets: ${wb.worksheets.map((w) => w.name).join(', ')}`);
  const rows: unknown[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    rows[n - 1] = (row.values as unknown[]).slice(1).map((v) => {
      if (v && typeof v === 'object' && !(v instanceof Date)) {
        const o = v as { result?: unknown; richText?: { text: string }[]; text?: unknown };
        if ('result' in o) return o.result;
        if (o.richText) return o.richText.map((r) => r.text).join('');
        if ('text' in o) return o.text;
      }
      return v;
    });
  });
  return rows.map((r) => r ?? []);
}

/** The value next to a label in the Summary sheet. */
export function summaryValue(wb: ExcelJS.Workbook, label: string): unknown {
  const row = sheetValues(wb, 'Summary').find((r) => r[0] === label);
  if (!row) throw new Error(`no "${label}" on the Summary sheet`);
  return row[1];
}

export const cents = (n: number) => Math.round(n * 100);
