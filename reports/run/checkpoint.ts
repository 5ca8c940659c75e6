import { createHash } from 'node:crypto';
import { access, mkdir, open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Performance } from '../../src/wire';
import type { Section } from '../report-data';
import type { PortfolioInput } from '../../src/holdings/types';
import type { ItemResult, PortfolioResults, ScoreLite } from './results';
import { JournalHeader, describeIssue, parseEntry, type JournalEntry } from './checkpoint-schema';

export const CHECKPOINT_FILE = '.svc-report-checkpoint.jsonl';
const VERSION = 2;

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

/** The run a checkpoint must fit: its portfolios and how many holdings each has. */
export type RunShape = ReadonlyMap<string, number>;

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
  ) {}

  static fresh(outDir: string, key: string, generatedAt: string): Checkpoint {
    return new Checkpoint(join(outDir, CHECKPOINT_FILE), { version: VERSION, key, generated_at: generatedAt, portfolios: {} });
  }

  /**
   * The saved checkpoint when it matches `key`; undefined when there is none; throws
   * CheckpointMismatch when it belongs to other input or fails validation (against `shape`:
   * portfolios of this run, positions within their holdings).
   */
  static async load(outDir: string, key: string, shape?: RunShape): Promise<Checkpoint | undefined> {
    const path = join(outDir, CHECKPOINT_FILE);
    const state = await readCheckpointState(path, { key, shape });
    if (!state) return undefined;
    const cp = new Checkpoint(path, state);
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
      if (!this.file) return this.rewrite(); // the first save writes the state, entry included
      await this.file.write(JSON.stringify(entry) + '\n');
      await this.file.datasync();
    });
  }

  private async rewrite(): Promise<void> {
    await this.file?.close();
    this.file = undefined;
    await mkdir(dirname(this.path), { recursive: true });
    const lines: string[] = [JSON.stringify({ version: this.state.version, key: this.state.key, generated_at: this.state.generated_at })];
    for (const [name, p] of Object.entries(this.state.portfolios)) {
      lines.push(JSON.stringify({ p: name, v: pick(p.valuations) }), JSON.stringify({ p: name, s: pick(p.scores) }));
      if (p.enrichment) lines.push(JSON.stringify({ p: name, e: p.enrichment }));
    }
    if (this.state.consolidated) lines.push(JSON.stringify({ c: this.state.consolidated }));
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, lines.join('\n') + '\n');
    await rename(tmp, this.path);
    this.file = await open(this.path, 'a');
  }
}

/**
 * Replays a journal into the state it describes; undefined when there is no checkpoint. Every
 * line is validated; with `expected`, a journal of another run (version, key) is refused before
 * its entries are read, and entries must fit the run's shape.
 */
export async function readCheckpointState(path: string, expected?: { key: string; shape?: RunShape }): Promise<CheckpointState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const invalid = (line: number, why: string) =>
    new CheckpointMismatch(`the checkpoint ${path} is damaged or was edited (line ${line}: ${why}); delete it to start afresh, or run without --resume (which starts afresh and replaces it)`);
  const lines = text.split('\n').filter((l) => l.length > 0);
  const head = JournalHeader.safeParse(parseJson(lines[0] ?? ''));
  if (!head.success) throw invalid(1, describeIssue(head.error));
  if (expected && (head.data.version !== VERSION || head.data.key !== expected.key)) {
    throw new CheckpointMismatch(
      `the checkpoint ${path} belongs to a run with other holdings, as-of date, currency or service; run the same command as before with --resume, or delete it to start afresh`,
    );
  }
  const shape = expected?.shape;
  const state: CheckpointState = { version: head.data.version, key: head.data.key, generated_at: head.data.generated_at, portfolios: {} };
  for (const [k, line] of lines.slice(1).entries()) {
    const raw = parseJson(line);
    if (raw === undefined && k === lines.length - 2) break; // torn by a crash mid-write: that chunk is valued again
    const parsed = parseEntry(raw);
    if (!parsed.ok) throw invalid(k + 2, raw === undefined ? 'not JSON' : parsed.why);
    const outOfShape = shape && shapeProblem(parsed.entry, shape);
    if (outOfShape) throw invalid(k + 2, outOfShape);
    apply(state, parsed.entry);
  }
  // Holes (never valued) read as null, as a fresh state has them.
  for (const p of Object.values(state.portfolios)) {
    p.valuations = Array.from(p.valuations, (v) => v ?? null);
    p.scores = Array.from(p.scores, (sc) => sc ?? null);
  }
  return state;
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** An entry naming a portfolio this run does not have, or a position past its holdings. */
function shapeProblem(entry: JournalEntry, shape: RunShape): string | undefined {
  if ('c' in entry) return undefined;
  const size = shape.get(entry.p);
  if (size === undefined) return `no portfolio "${entry.p}" in this run`;
  const byIndex = 'v' in entry ? entry.v : 's' in entry ? entry.s : {};
  const past = Object.keys(byIndex).find((i) => Number(i) >= size);
  return past === undefined ? undefined : `holding position ${past} is past the ${size} holdings of "${entry.p}"`;
}

function apply(state: CheckpointState, entry: JournalEntry): void {
  if ('c' in entry) {
    if (entry.c) state.consolidated = entry.c;
    else delete state.consolidated;
    return;
  }
  const p = (state.portfolios[entry.p] ??= { valuations: [], scores: [] });
  if ('v' in entry) for (const [i, v] of Object.entries(entry.v)) p.valuations[Number(i)] = v;
  else if ('s' in entry) for (const [i, sc] of Object.entries(entry.s)) p.scores[Number(i)] = sc;
  else if (entry.e) p.enrichment = entry.e;
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
