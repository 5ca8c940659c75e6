import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, monthEnds, openDatabase } from '../../src/db';
import { runReports } from '../../reports/run/run-job';
import type { Progress } from '../../reports/run/progress';
import { ROOT, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';
import { makePki } from '../signoff/certificates';
import { startTimestampServer, type TimestampServer } from '../signoff/timestamp-server';
import { docBlocks, docFiles, isCommandBlock, isLedgerBlock, matchOutput, notRunReason, steps, type DocBlock } from './docs-blocks';

/**
 * Issue 34: every ledger and command example of README.md and docs/ runs, and gives what the docs
 * show. Blocks are marked `<!-- docs-example: ledger FILE -->` (written to FILE) or
 * `<!-- docs-example: commands -->` (each `$` line run in the same folder against the sandbox over
 * HTTP; the lines after it are its output — stderr for `npx svc-report` (or its stdout, when the
 * lines are what it prints there), stdout for the tools that read its files — `...` standing for
 * lines left out and `exit N` for its exit code). A csv block with a type column left unmarked
 * fails, so no ledger example escapes; so does a block showing commands that is neither run nor
 * marked `<!-- docs-example: not-run REASON -->`. The signing examples get the signoff tests'
 * throw-away key (firm.p12), CA (firm-ca.pem) and TSA ($FIRM_TSA_URL, $FIRM_SIGN_PASSWORD). Then a 14-month ledger
 * written from the docs alone, month-ends through the run function in-process (the CLI is run by
 * the examples above), recorded in an embedded database.
 */

const run = promisify(execFile);
/** Debian's python3 with python3-openpyxl (a pyenv python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';

const blocks: DocBlock[] = docFiles(ROOT).flatMap((doc) => docBlocks(ROOT, doc));
const marked = blocks.filter((b) => b.marker);
/** The blocks the runner runs: ledgers written, commands run (a `not-run` block is only checked for its reason). */
const runnable = marked.filter((b) => b.marker![0] !== 'not-run');
const where = (b: DocBlock) => `${b.doc}:${b.line}`;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await testSandbox();
});
afterAll(() => sb?.close());

describe('the docs mark their examples', () => {
  it('every ledger in README.md and docs/ is a marked example, and the examples cover the lot, unit and refusal cases', () => {
    const unmarked = blocks.filter((b) => isLedgerBlock(b) && b.marker?.[0] !== 'ledger').map(where);
    expect(unmarked).toEqual([]);
    const ledgers = marked.filter((b) => b.marker![0] === 'ledger');
    expect(ledgers.map((b) => b.marker![1])).toEqual(expect.arrayContaining(['readme-ledger.csv', 'okafor-ledger.csv', 'bad-ledger.csv']));
    for (const b of marked) expect(['ledger', 'commands', 'not-run'], where(b)).toContain(b.marker![0]);
  });

  it('every block that shows commands is run, or marked not-run with the reason it cannot be', () => {
    const commandBlocks = blocks.filter(isCommandBlock);
    const unaccounted = commandBlocks.filter((b) => b.marker?.[0] !== 'commands' && notRunReason(b) === undefined).map(where);
    expect(unaccounted).toEqual([]);
    // The check itself: an unmarked `$` block, an unmarked shell fence and a reasonless not-run are all caught.
    expect(isCommandBlock({ doc: 'x.md', line: 1, lang: '', body: ['$ svc-report verify out'] })).toBe(true);
    expect(isCommandBlock({ doc: 'x.md', line: 1, lang: 'sh', body: ['ls'] })).toBe(true);
    expect(isCommandBlock({ doc: 'x.md', line: 1, lang: '', body: ['SVC_QUEUE_SECRET=… svc-report worker --out x'] })).toBe(true);
    expect(isCommandBlock({ doc: 'x.md', line: 1, lang: 'csv', body: ['a,b'] })).toBe(false);
    expect(notRunReason({ doc: 'x.md', line: 1, lang: '', body: [], marker: ['not-run'] })).toBeUndefined();
    expect(notRunReason({ doc: 'x.md', line: 1, lang: '', body: [], marker: ['not-run', 'needs', 'a', 'live', 'service'] })).toBe('needs a live service');
  });

  it('an output that lacks a line the docs show, or has one they do not, does not match', () => {
    expect(matchOutput(['a', '...', 'c'], ['a', 'b', 'b', 'c']).ok).toBe(true);
    expect(matchOutput(['a', 'c'], ['a', 'b', 'c']).ok).toBe(false);
    expect(matchOutput(['a', '...', 'c'], ['a', 'b']).ok).toBe(false);
    expect(matchOutput(['a', 'b'], ['a', 'b', 'c'])).toEqual({ ok: false, wanted: '(end of output)', at: 2 });
  });
});

/** The throw-away signing key's password, which the docs' signing example reads from $FIRM_SIGN_PASSWORD. */
const SIGN_PASSWORD = 'docs-example-password';

describe('the docs examples, run as written', () => {
  const cwd = tempDir('svc-docs-examples-');
  let tsa: TimestampServer;
  beforeAll(async () => {
    // The docs' commands name examples/… relative to the repository.
    symlinkSync(join(ROOT, 'examples'), join(cwd, 'examples'));
    // The firm's key, CA and timestamp authority the signing examples name: the signoff tests' throw-away ones.
    const pki = makePki(tempDir('svc-docs-pki-'), SIGN_PASSWORD);
    // Copies: --ca and --sign read regular files only, never through a link.
    copyFileSync(pki.p12, join(cwd, 'firm.p12'));
    copyFileSync(pki.caCert, join(cwd, 'firm-ca.pem'));
    tsa = await startTimestampServer(pki);
  });
  afterAll(() => tsa?.close());

  for (const doc of [...new Set(runnable.map((b) => b.doc))]) {
    it(`${doc}: its marked ledgers and commands give what it shows`, async () => {
      for (const b of runnable.filter((x) => x.doc === doc)) {
        if (b.marker![0] === 'ledger') {
          writeFileSync(join(cwd, b.marker![1]!), b.body.join('\n') + '\n');
          continue;
        }
        for (const step of steps(b)) {
          // The shell splits and expands the command as a reader's shell would.
          // $FIRM_TSA_URL and $FIRM_SIGN_PASSWORD stand for the firm's timestamp authority and its key's password.
          const firm = { FIRM_TSA_URL: tsa.url, FIRM_SIGN_PASSWORD: SIGN_PASSWORD };
          const { stdout: words } = await run('bash', ['-c', `printf '%s\\0' ${step.command}`], { cwd, env: { ...process.env, ...firm } });
          const argv = words.split('\0').slice(0, -1);
          // `NAME=value command …`: the variables for that command alone, as the shell gives them.
          const env: Record<string, string> = {};
          while (/^[A-Z_][A-Z0-9_]*=/.test(argv[0] ?? '')) {
            const [name, ...value] = argv.shift()!.split('=');
            env[name!] = value.join('=');
          }
          // `svc-report` as installed is `npx svc-report` from the repository.
          if (argv[0] === 'svc-report') argv.unshift('npx');
          let code: number;
          let output: string;
          if (argv[0] === 'npx' && argv[1] === 'svc-report') {
            const r = await runCli(argv.slice(2), { ...serviceEnv(sb), ...env }, cwd);
            code = r.code ?? -1;
            // What the command says goes to stderr; what it was asked for (history's month-ends, verify's findings) to stdout.
            output = step.expected.length === 0 || matchOutput(step.expected, toLines(r.stderr)).ok ? r.stderr : r.stdout;
          } else {
            const r = await run(argv[0]!, argv.slice(1), { cwd, env: { ...process.env, ...env } }).then(
              (x) => ({ code: 0, stdout: x.stdout }),
              (e: { code?: number; stdout?: string }) => ({ code: e.code ?? -1, stdout: e.stdout ?? '' }),
            );
            code = r.code;
            output = r.stdout;
          }
          const lines = toLines(output);
          const label = `${where(b)} $ ${step.command}`;
          if (step.exit !== undefined) expect(code, `${label}\n${output}`).toBe(step.exit);
          // Without a stated exit code a month-end must finish (3: with the rows the docs show refused); a tool must succeed.
          else expect(argv[1] === 'svc-report' ? [0, 3] : [0], `${label}\n${output}`).toContain(code);
          if (step.expected.length === 0) continue;
          const m = matchOutput(step.expected, lines);
          expect(m, `${label}\nthe docs show: ${m.ok ? '' : m.wanted}\nthe output (from line ${m.ok ? 0 : m.at + 1}):\n${lines.slice(m.ok ? 0 : m.at).join('\n')}`).toEqual({ ok: true });
        }
      }
    }, 400_000);
  }
});

function toLines(output: string): string[] {
  const lines = output.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The 14 month-ends the ledger is reported through: 2025-01-31 … 2026-02-28. */
const MONTHS = Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2025, i + 1, 0)).toISOString().slice(0, 10));

/**
 * A newcomer's ledger, from docs/report-job.md ("Transactions files") alone: a case of wine bought
 * by the case and half of it sold by the bottle; a watch bought twice at two costs, the dearer one
 * sold by naming its lot; a fee.
 */
const LEDGER = [
  'Portfolio,Date,Type,Segment,Brand,Model,Reference,Year,Asset ID,Unit,Lot,Quantity,Amount,Currency,Notes',
  'Ashworth,2025-01-10,buy,watches,Rolex,Submariner Date,126610LN,2021,,,Sub A,1,12500,EUR,',
  'Ashworth,2025-01-12,buy,wine,Petrus,Pomerol,,2010,,case,,1,48000,EUR,one case',
  'Ashworth,2025-03-05,buy,watches,Rolex,Submariner Date,126610LN,2021,,,Sub B,1,14800,EUR,a second one',
  'Ashworth,2025-06-10,sell,wine,Petrus,Pomerol,,2010,,bottle,,6,30000,EUR,half the case',
  'Ashworth,2025-12-31,fee,,,,,,,,,,250,EUR,storage',
  'Ashworth,2026-02-16,sell,watches,Rolex,Submariner Date,126610LN,2021,,,Sub B,1,15900,EUR,the dearer one',
].join('\n');

interface Holding {
  asset_id: string;
  segment: string;
  quantity: number;
  current_value: number;
}

describe('a 14-month ledger written from the docs', () => {
  const dir = tempDir('svc-docs-ledger-');
  const db = join(dir, 'db');
  const ledger = join(dir, 'ashworth.csv');
  const reports = new Map<string, { holdings: Holding[]; realised_gain: { lines: { lot: string | null; cost: number; proceeds: number; gain: number }[] }; transactions: { lot: string | null; unit: string | null }[] }>();
  const codes: number[] = [];
  let xlsx = '';

  beforeAll(async () => {
    writeFileSync(ledger, LEDGER + '\n');
    const silent: Progress = { update: () => {}, log: () => {}, stop: () => {} };
    for (const asOf of MONTHS) {
      const out = join(dir, asOf);
      mkdirSync(out);
      const last = asOf === MONTHS.at(-1);
      const outcome = await runReports({ files: [ledger], out, asOf, db, formats: last ? 'json,xlsx' : 'json' }, { signal: new AbortController().signal, progress: silent, env: serviceEnv(sb) });
      codes.push(outcome.exitCode);
      reports.set(asOf, JSON.parse(readFileSync(join(out, `ashworth-${asOf}.json`), 'utf8')));
      if (last) xlsx = join(out, readdirSync(out).find((f) => f.endsWith('.xlsx'))!);
    }
  }, 400_000);

  it('runs every month without a refused row, and records every month in the embedded database', async () => {
    expect(codes).toEqual(MONTHS.map(() => 0));
    const opened = await openDatabase(db);
    try {
      expect((await monthEnds(opened, 'Ashworth')).map((m) => m.asOf)).toEqual(MONTHS);
    } finally {
      await close(opened);
    }
  });

  it('holds the case as a case, then the six bottles left as bottles, valued every month', () => {
    for (const asOf of MONTHS) {
      const wine = reports.get(asOf)!.holdings.filter((h) => h.segment === 'wine');
      expect(wine, asOf).toHaveLength(1);
      expect(wine[0]!.current_value, asOf).toBeGreaterThan(0);
      if (asOf < '2025-06-10') {
        expect([wine[0]!.quantity, wine[0]!.asset_id.endsWith('-S75CL')], asOf).toEqual([1, false]);
      } else {
        expect([wine[0]!.quantity, wine[0]!.asset_id.endsWith('-S75CL')], asOf).toEqual([6, true]);
      }
    }
    // Six bottles are worth about half of the case they came from (the service's bottle is a twelfth of its case).
    const before = reports.get('2025-05-31')!.holdings.find((h) => h.segment === 'wine')!.current_value;
    const after = reports.get('2025-06-30')!.holdings.find((h) => h.segment === 'wine')!.current_value;
    expect(after / before).toBeGreaterThan(0.4);
    expect(after / before).toBeLessThan(0.6);
  });

  it("realises the named lot's gain: the dearer watch's cost, not the first one's", () => {
    const last = reports.get(MONTHS.at(-1)!)!;
    const watch = last.realised_gain.lines.filter((l) => l.lot !== null);
    expect(watch.map((l) => [l.lot, l.cost, l.proceeds, l.gain])).toEqual([['Sub B', 14800, 15900, 1100]]);
    // The watch left is lot Sub A, at its own cost.
    expect(last.holdings.filter((h) => h.segment === 'watches').map((h) => h.quantity)).toEqual([1]);
    expect(last.transactions.map((t) => [t.lot, t.unit])).toEqual([['Sub B', null]]);
  });

  it('shows the lot in the xlsx Transactions and Realised gains sheets, read back with openpyxl', async () => {
    expect(existsSync(PYTHON), `${PYTHON} with python3-openpyxl is needed`).toBe(true);
    const script = [
      'import json, sys, openpyxl',
      'wb = openpyxl.load_workbook(sys.argv[1])',
      'print(json.dumps({n: [[c.value for c in r] for r in wb[n].iter_rows()] for n in ("Transactions", "Realised gains")}, default=str))',
    ].join('\n');
    const { stdout } = await run(PYTHON, ['-c', script, xlsx]);
    const sheets = JSON.parse(stdout) as Record<string, unknown[][]>;
    const lotOf = (sheet: string) => {
      const rows = sheets[sheet]!;
      const col = rows[0]!.indexOf('Lot');
      expect(col, sheet).toBeGreaterThanOrEqual(0);
      return rows.slice(1).map((r) => r[col]);
    };
    expect(lotOf('Transactions')).toEqual(['Sub B']);
    // The wine's six bottles (no lot name), then the watch of lot Sub B; the Total row below them.
    expect(lotOf('Realised gains').slice(0, 2)).toEqual([null, 'Sub B']);
  });
});
