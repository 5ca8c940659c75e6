import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The fenced blocks of README.md and docs/*.md, with the `<!-- docs-example: … -->` marker on the
 * line before each (blank lines between allowed), so the docs' examples can be run as written.
 */
export interface DocBlock {
  /** The document, relative to the repository ("docs/report-job.md"), and the fence's line (1-based). */
  doc: string;
  line: number;
  /** The fence's info string ("csv", "sh", ""). */
  lang: string;
  /** The marker's words: ["ledger", "okafor-ledger.csv"] or ["commands"]; undefined when not marked. */
  marker?: string[];
  body: string[];
}

export function docFiles(root: string): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

export function docBlocks(root: string, doc: string): DocBlock[] {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const out: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    let j = i - 1;
    while (j >= 0 && lines[j]!.trim() === '') j--;
    const marked = j >= 0 ? /^<!--\s*docs-example:\s*(.+?)\s*-->$/.exec(lines[j]!.trim()) : null;
    const body: string[] = [];
    let k = i + 1;
    while (k < lines.length && !/^```\s*$/.test(lines[k]!)) body.push(lines[k++]!);
    out.push({ doc, line: i + 1, lang: open[1] ?? '', body, ...(marked ? { marker: marked[1]!.split(/\s+/) } : {}) });
    i = k;
  }
  return out;
}

/** A csv block whose header has a `type` column: a transactions file, as the reader recognises one. */
export function isLedgerBlock(b: DocBlock): boolean {
  const header = b.body[0];
  return b.lang === 'csv' && header !== undefined && header.split(',').some((h) => h.trim().toLowerCase() === 'type');
}

/** A line a reader would type at a shell: `$ …`, or a command of the project's or of the tools its docs use. */
const COMMAND_LINE = /^\s*(\$ |([A-Z_][A-Z0-9_]*=\S*\s+)*(sudo\s+)?(npx|npm|svc-report|svc-sandbox|node|pdfsig|jq|curl|openssl|systemctl)\b)/;

/**
 * A block that shows commands: a shell fence (sh, bash, shell, console) or any line that runs one.
 * Each must be run (`commands`) or say why it cannot be (`not-run REASON`), so none goes stale unseen.
 */
export function isCommandBlock(b: DocBlock): boolean {
  return ['sh', 'bash', 'shell', 'console'].includes(b.lang) || b.body.some((l) => COMMAND_LINE.test(l));
}

/** A `not-run` marker's reason: at least a few words saying what the block needs that a test does not have. */
export function notRunReason(b: DocBlock): string | undefined {
  if (b.marker?.[0] !== 'not-run') return undefined;
  const reason = b.marker.slice(1).join(' ');
  return reason.split(/\s+/).filter(Boolean).length >= 3 ? reason : undefined;
}

export interface Step {
  command: string;
  /** The lines the docs show after it (`...` for lines left out); empty when they show none. */
  expected: string[];
  /** `exit N` after the output, when the docs state the exit code. */
  exit?: number;
}

/** A commands block's steps: each `$ ` line, the output lines after it, and an `exit N` line. */
export function steps(b: DocBlock): Step[] {
  const out: Step[] = [];
  for (const line of b.body) {
    if (line.startsWith('$ ')) out.push({ command: line.slice(2), expected: [] });
    else if (out.length === 0) throw new Error(`${b.doc}:${b.line}: a commands block starts with "$ "`);
    else if (/^exit \d+$/.test(line)) out.at(-1)!.exit = Number(line.slice(5));
    else out.at(-1)!.expected.push(line);
  }
  return out;
}

/**
 * Whether `actual` lines are what the docs show: line for line, a `...` line standing for any
 * number of lines (none included). Answers the first line that differs, for the failure message.
 */
export function matchOutput(expected: readonly string[], actual: readonly string[]): { ok: true } | { ok: false; wanted: string; at: number } {
  const go = (e: number, a: number): { ok: true } | { ok: false; wanted: string; at: number } => {
    if (e === expected.length) return a === actual.length ? { ok: true } : { ok: false, wanted: '(end of output)', at: a };
    if (expected[e] === '...') {
      for (let skip = a; skip <= actual.length; skip++) {
        const r = go(e + 1, skip);
        if (r.ok) return r;
      }
      return { ok: false, wanted: expected[e + 1] ?? '(end of output)', at: a };
    }
    if (actual[a] !== expected[e]) return { ok: false, wanted: expected[e]!, at: a };
    return go(e + 1, a + 1);
  };
  return go(0, 0);
}
