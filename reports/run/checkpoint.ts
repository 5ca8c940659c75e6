import { createHash } from 'node:crypto';
import { access, mkdir, open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Performance } from '../../src/wire';
import type { Section } from '../report-data';
import type { PortfolioInput } from '../../src/holdings/types';
import type { ItemResult, PortfolioResults, ScoreLite } from './results';
import { JournalHeader, describeIssue, itemProblem, parseEntry, type JournalLine } from './checkpoint-schema';
import { CHECKPOINT_KEY_FILE, createCheckpointSecret, macVerifies, readCheckpointSecret, signedLine, type CheckpointSecret } from './checkpoint-mac';

export const CHECKPOINT_FILE = '.svc-report-checkpoint.jsonl';
/** 3: every line carries a MAC under the run's key, and holdings' entries name the asset they are for. */
const VERSION = 3;

export interface PortfolioState {
  /** Index-aligned with the holdings; null: not valued yet. */
  valuations: (ItemResult | null)[];
  /** Index-aligned; null: not scored yet; false: the service could not score it. */
  scores: (ScoreLite | false | null)[];
  /** Projections, exit analysis, performance and job-level problems, once fetched. */
  enrichment?: Pick<PortfolioResults, 'performance' | 'projections' | 'exits' | 'problems'>;
}

export interface CheckpointState {
  version: number;
  /** Hash of what the results depend on: a checkpoint of other input is never reused. */
  key: string;
  /** Recorded once, so a resumed run's reports carry the same generated_at. */
  generated_at: string;
  portfolios: Record<string, PortfolioState>;
  consolidated?: { performance: Section<Performance> };
}

export function checkpointKey(portfolios: readonly PortfolioInput[], asOf: string, currency: string, serviceUrl: string): string {
  const content = portfolios.map((p) => [p.name, p.holdings.map((h) => [h.assetId, h.source.row, h.quantity, h.purchasePrice, h.purchaseDate])]);
  return createHash('sha256').update(JSON.stringify([VERSION, asOf, currency, serviceUrl, content])).digest('hex');
}

type Journal =
  | { p: string; v: Record<number, ItemResult> }
  | { p: string; s: Record<number, ScoreLite | false> }
  | { p: string; e: PortfolioState['enrichment'] | null }
  | { c: CheckpointState['consolidated'] | null };

/** What valuing needs of a journal: this file checkpoint, or the per-chunk journal in Redis in queue mode (reports/queue). */
export interface RunJournal {
  readonly state: Pick<CheckpointState, 'consolidated'>;
  portfolio(name: string): PortfolioState;
  recordValuations(name: string, indices: readonly number[]): Promise<void>;
  recordScores(name: string, indices: readonly number[]): Promise<void>;
  recordEnrichment(name: string): Promise<void>;
  dropEnrichment(name: string): Promise<void>;
  recordConsolidated(): Promise<void>;
  flush(): Promise<void>;
}

/** The run a checkpoint must fit: its portfolios and their holdings' asset ids, by position. */
export type RunShape = ReadonlyMap<string, readonly string[]>;

/** Entries of a checkpoint that failed their check on reading: not used, so their holdings are valued again. */
export interface Discarded {
  /** Holdings' valuations and scores, portfolios' enrichment, the consolidated performance. */
  entries: number;
  /** "line 3: its MAC does not verify", one per failing line or holding. */
  reasons: string[];
}

/** The line a run prints for what it did not use: undefined when everything passed. */
export function describeDiscarded(d: Discarded): string | undefined {
  if (d.entries === 0) return undefined;
  const shown = d.reasons.slice(0, 3).join('; ');
  const more = d.reasons.length > 3 ? `; and ${d.reasons.length - 3} more` : '';
  return `checkpoint: ${d.entries} ${d.entries === 1 ? 'entry' : 'entries'} failed ${d.entries === 1 ? 'its' : 'their'} check and ${d.entries === 1 ? 'was' : 'were'} valued again (${shown}${more})`;
}

/**
 * The checkpoint in the output folder: an append-only journal. Its first line says which run it
 * belongs to; every later line holds one chunk's results (or one portfolio's enrichment), synced
 * to disk before the next chunk is sent. A save therefore costs one chunk, not the whole run
 * (a 1,000-portfolio month-end would otherwise rewrite tens of megabytes after every chunk).
 * A crash mid-line leaves a torn last line, which loading ignores: that chunk is valued again.
 * Loading compacts the journal (temp file, then rename) so resumes do not let it grow.
 *
 * Chunks land in any order when several are in flight: lines are keyed by holding position, so
 * their order does not matter, and writes go one after another through a queue, so two chunks
 * landing together never interleave their bytes and only the last line can ever be torn.
 */
export class Checkpoint implements RunJournal {
  private file: FileHandle | undefined;
  /** Every write to the file, in the order asked for. */
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    readonly state: CheckpointState,
    /** The holdings' asset ids each entry is recorded for (absent: entries name none). */
    private readonly shape: RunShape | undefined,
    /** The run's key; undefined until the first write creates it. */
    private secret: CheckpointSecret | undefined,
    /** What loading did not use. */
    readonly discarded: Discarded = { entries: 0, reasons: [] },
  ) {}

  static fresh(outDir: string, key: string, generatedAt: string, shape?: RunShape): Checkpoint {
    return new Checkpoint(join(outDir, CHECKPOINT_FILE), { version: VERSION, key, generated_at: generatedAt, portfolios: {} }, shape, undefined);
  }

  /**
   * The saved checkpoint when it matches `key`; undefined when there is none; throws
   * CheckpointMismatch when it belongs to other input. Entries that fail their check (MAC,
   * schema, ranges, the asset they are for, a portfolio or position this run has) are left out
   * and counted in `discarded`: their holdings are valued again.
   */
  static async load(outDir: string, key: string, shape?: RunShape): Promise<Checkpoint | undefined> {
    const path = join(outDir, CHECKPOINT_FILE);
    const read = await readJournal(path, { key, shape });
    if (!read) return undefined;
    const cp = new Checkpoint(path, read.state, shape, read.secret, read.discarded);
    await cp.save();
    return cp;
  }

  static async exists(outDir: string): Promise<boolean> {
    return access(join(outDir, CHECKPOINT_FILE)).then(
      () => true,
      () => false,
    );
  }

  portfolio(name: string): PortfolioState {
    return (this.state.portfolios[name] ??= { valuations: [], scores: [] });
  }

  /** Journals the valuations of these holdings (as they now stand in the portfolio's state). */
  recordValuations(name: string, indices: readonly number[]): Promise<void> {
    const state = this.portfolio(name);
    return this.append({ p: name, v: pick(state.valuations, indices) });
  }

  recordScores(name: string, indices: readonly number[]): Promise<void> {
    const state = this.portfolio(name);
    return this.append({ p: name, s: pick(state.scores, indices) });
  }

  recordEnrichment(name: string): Promise<void> {
    return this.append({ p: name, e: this.portfolio(name).enrichment ?? null });
  }

  /** New valuations make a portfolio's enrichment, and the consolidated performance, stale. */
  async dropEnrichment(name: string): Promise<void> {
    delete this.portfolio(name).enrichment;
    delete this.state.consolidated;
    await this.append({ p: name, e: null });
    await this.append({ c: null });
  }

  recordConsolidated(): Promise<void> {
    return this.append({ c: this.state.consolidated ?? null });
  }

  /** Writes the whole state as a fresh journal (temp file, then rename) and keeps it open for appending. */
  save(): Promise<void> {
    return this.enqueue(() => this.rewrite());
  }

  close(): Promise<void> {
    return this.enqueue(async () => {
      await this.file?.close();
      this.file = undefined;
    });
  }

  async remove(): Promise<void> {
    await this.close();
    await rm(this.path, { force: true });
    await rm(join(dirname(this.path), CHECKPOINT_KEY_FILE), { force: true });
  }

  /** Waits for every write asked for so far. */
  flush(): Promise<void> {
    return this.enqueue(async () => {});
  }

  private enqueue(write: () => Promise<void>): Promise<void> {
    const done = this.queue.then(write);
    this.queue = done.catch(() => {}); // one failed write is reported to its caller; later ones still run
    return done;
  }

  private append(entry: Journal): Promise<void> {
    return this.enqueue(async () => {
      if (!this.file || !this.secret) return this.rewrite(); // the first save writes the state, entry included
      await this.file.write(this.line(entry) + '\n');
      await this.file.datasync();
    });
  }

  /** An entry as a signed line; a holding's entry names the asset it is for. */
  private line(entry: Journal): string {
    const ids = 'p' in entry && ('v' in entry || 's' in entry) ? this.shape?.get(entry.p) : undefined;
    const byPosition = 'v' in entry ? entry.v : 's' in entry ? entry.s : undefined;
    const withIds = ids && byPosition ? { ...entry, a: Object.fromEntries(Object.keys(byPosition).map((i) => [i, ids[Number(i)] ?? ''])) } : entry;
    return signedLine(this.secret!, this.state.key, withIds);
  }

  private async rewrite(): Promise<void> {
    await this.file?.close();
    this.file = undefined;
    await mkdir(dirname(this.path), { recursive: true });
    // A new key for every new journal (a fresh run, or a loaded one whose key was not trusted); a trusted loaded key is kept.
    this.secret ??= await createCheckpointSecret(dirname(this.path));
    const lines: string[] = [signedLine(this.secret, this.state.key, { version: this.state.version, key: this.state.key, generated_at: this.state.generated_at })];
    for (const [name, p] of Object.entries(this.state.portfolios)) {
      lines.push(this.line({ p: name, v: pick(p.valuations) }), this.line({ p: name, s: pick(p.scores) }));
      if (p.enrichment) lines.push(this.line({ p: name, e: p.enrichment }));
    }
    if (this.state.consolidated) lines.push(this.line({ c: this.state.consolidated }));
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, lines.join('\n') + '\n');
    await rename(tmp, this.path);
    this.file = await open(this.path, 'a');
  }
}

/**
 * Replays a journal into the state it describes; undefined when there is no checkpoint. With
 * `expected`, a journal of another run (version, key) is refused before its entries are read.
 */
export async function readCheckpointState(path: string, expected?: { key: string; shape?: RunShape }): Promise<CheckpointState | undefined> {
  return (await readJournal(path, expected))?.state;
}

/**
 * The journal's state, its key when trusted, and the entries left out. Every line must carry the
 * MAC of the run's key (checkpoint-mac.ts) and fit its schema; every holding's entry must pass
 * its own checks (finite numbers, mid within low–high, the asset it is for) and fit `shape`.
 * What fails is left out and counted, never used: its holding is valued again.
 */
async function readJournal(path: string, expected?: { key: string; shape?: RunShape }): Promise<{ state: CheckpointState; secret: CheckpointSecret | undefined; discarded: Discarded } | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n').filter((l) => l.length > 0);
  const discarded: Discarded = { entries: 0, reasons: [] };
  const headRaw = parseJson(lines[0] ?? '');
  const head = JournalHeader.safeParse(headRaw);
  const key = await readCheckpointSecret(dirname(path));
  const nothingUsed = (why: string): { state: CheckpointState; secret: undefined; discarded: Discarded } => {
    for (const line of lines.slice(1)) discarded.entries += entriesIn(parseJson(line));
    discarded.reasons.push(why);
    const state: CheckpointState = { version: VERSION, key: expected?.key ?? (head.success ? head.data.key : ''), generated_at: new Date().toISOString(), portfolios: {} };
    return { state, secret: undefined, discarded };
  };
  if (!head.success) return nothingUsed(`line 1: ${describeIssue(head.error)}`);
  if (expected && (head.data.version !== VERSION || head.data.key !== expected.key)) {
    throw new CheckpointMismatch(
      `the checkpoint ${path} belongs to a run with other holdings, as-of date, currency or service; run the same command as before with --resume, or delete it to start afresh`,
    );
  }
  if ('why' in key) return nothingUsed(key.why);
  if (!macVerifies(key.secret, head.data.key, headRaw as Record<string, unknown>)) return nothingUsed('line 1: its MAC does not verify');
  const shape = expected?.shape;
  const state: CheckpointState = { version: head.data.version, key: head.data.key, generated_at: head.data.generated_at, portfolios: {} };
  for (const [k, line] of lines.slice(1).entries()) {
    const raw = parseJson(line);
    if (raw === undefined && k === lines.length - 2) break; // torn by a crash mid-write: that chunk is valued again
    const refuse = (why: string) => {
      discarded.entries += entriesIn(raw);
      discarded.reasons.push(`line ${k + 2}: ${why}`);
    };
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      refuse('not JSON');
      continue;
    }
    if (!macVerifies(key.secret, state.key, raw as Record<string, unknown>)) {
      refuse('its MAC does not verify');
      continue;
    }
    const { mac: _mac, ...body } = raw as Record<string, unknown>;
    const parsed = parseEntry(body);
    if (!parsed.ok) {
      refuse(parsed.why);
      continue;
    }
    const outOfShape = shape && shapeProblem(parsed.entry, shape);
    if (outOfShape) {
      refuse(outOfShape);
      continue;
    }
    apply(state, parsed.entry, shape, (why) => {
      discarded.entries += 1;
      discarded.reasons.push(`line ${k + 2}: ${why}`);
    });
  }
  for (const p of Object.values(state.portfolios)) {
    // Holes (never valued, or left out) read as null, as a fresh state has them; a score without its valuation is asked again with it.
    p.valuations = Array.from(p.valuations, (v) => v ?? null);
    p.scores = Array.from(p.scores, (sc, i) => (p.valuations[i] ? (sc ?? null) : null));
  }
  return { state, secret: key.secret, discarded };
}

/** How many entries a line held: its holdings' valuations or scores, else one. */
function entriesIn(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return 1;
  const byPosition = (raw as Record<string, unknown>).v ?? (raw as Record<string, unknown>).s;
  return typeof byPosition === 'object' && byPosition !== null ? Math.max(1, Object.keys(byPosition).length) : 1;
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** An entry naming a portfolio this run does not have, or a position past its holdings. */
function shapeProblem(entry: JournalLine, shape: RunShape): string | undefined {
  if ('c' in entry) return undefined;
  const size = shape.get(entry.p)?.length;
  if (size === undefined) return `no portfolio "${entry.p}" in this run`;
  const byIndex = 'v' in entry ? entry.v : 's' in entry ? entry.s : {};
  const past = Object.keys(byIndex).find((i) => Number(i) >= size);
  return past === undefined ? undefined : `holding position ${past} is past the ${size} holdings of "${entry.p}"`;
}

/** Applies a line's entries to the state; a holding's entry that fails its own check is left out (`refuse`) and its earlier entry, if any, forgotten. */
function apply(state: CheckpointState, entry: JournalLine, shape: RunShape | undefined, refuse: (why: string) => void): void {
  if ('c' in entry) {
    if (entry.c) state.consolidated = entry.c;
    else delete state.consolidated;
    return;
  }
  const p = (state.portfolios[entry.p] ??= { valuations: [], scores: [] });
  if ('v' in entry || 's' in entry) {
    const kind = 'v' in entry ? 'v' : 's';
    const target: unknown[] = kind === 'v' ? p.valuations : p.scores;
    for (const [i, item] of Object.entries('v' in entry ? entry.v : entry.s)) {
      const checked = itemProblem(kind, i, item, entry.a?.[i], shape?.get(entry.p)?.[Number(i)]);
      if ('why' in checked) {
        refuse(checked.why);
        target[Number(i)] = null;
      } else target[Number(i)] = checked.ok;
    }
  } else if (entry.e) p.enrichment = entry.e;
  else delete p.enrichment;
}

/** The set entries of an index-aligned array (all of them, or those at `indices`), keyed by index. */
function pick<T>(items: readonly (T | null | undefined)[], indices?: readonly number[]): Record<number, T> {
  const out: Record<number, T> = {};
  for (const i of indices ?? items.keys()) {
    const item = items[i];
    if (item !== null && item !== undefined) out[i] = item;
  }
  return out;
}

export class CheckpointMismatch extends Error {
  override name = 'CheckpointMismatch';
}

/** What the report is built from, once a portfolio's valuations, scores and enrichment are all in its state. */
export function resultsOf(state: PortfolioState): PortfolioResults {
  const e = state.enrichment;
  if (!e) throw new Error('the portfolio has not been enriched yet');
  return {
    valuations: state.valuations.map((v) => v ?? undefined),
    scores: state.scores.map((s) => (s === false ? null : (s ?? undefined))),
    performance: e.performance,
    projections: e.projections,
    exits: e.exits,
    problems: e.problems,
  };
}
