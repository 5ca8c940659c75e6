import { createHash } from 'node:crypto';
import { access, mkdir, open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Performance } from '../../src/wire';
import type { Section } from '../report-data';
import type { PortfolioInput } from '../../src/holdings/types';
import type { ItemResult, PortfolioResults, ScoreLite } from './results';

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

/**
 * The checkpoint in the output folder: an append-only journal. Its first line says which run it
 * belongs to; every later line holds one chunk's results (or one portfolio's enrichment), synced
 * to disk before the next chunk is sent. A save therefore costs one chunk, not the whole run
 * (a 1,000-portfolio month-end would otherwise rewrite tens of megabytes after every chunk).
 * A crash mid-line leaves a torn last line, which loading ignores: that chunk is valued again.
 * Loading compacts the journal (temp file, then rename) so resumes do not let it grow.
 */
export class Checkpoint {
  private file: FileHandle | undefined;

  private constructor(
    readonly path: string,
    readonly state: CheckpointState,
  ) {}

  static fresh(outDir: string, key: string, generatedAt: string): Checkpoint {
    return new Checkpoint(join(outDir, CHECKPOINT_FILE), { version: VERSION, key, generated_at: generatedAt, portfolios: {} });
  }

  /** The saved checkpoint when it matches `key`; undefined when there is none; throws when it belongs to other input. */
  static async load(outDir: string, key: string): Promise<Checkpoint | undefined> {
    const path = join(outDir, CHECKPOINT_FILE);
    const state = await readCheckpointState(path);
    if (!state) return undefined;
    if (state.version !== VERSION || state.key !== key) {
      throw new CheckpointMismatch(
        `the checkpoint ${path} belongs to a run with other holdings, as-of date, currency or service; run the same command as before with --resume, or delete it to start afresh`,
      );
    }
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
  async save(): Promise<void> {
    await this.file?.close();
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

  async close(): Promise<void> {
    await this.file?.close();
    this.file = undefined;
  }

  async remove(): Promise<void> {
    await this.close();
    await rm(this.path, { force: true });
  }

  private async append(entry: Journal): Promise<void> {
    if (!this.file) return this.save(); // the first save writes the state, entry included
    await this.file.write(JSON.stringify(entry) + '\n');
    await this.file.datasync();
  }
}

/** Replays a journal into the state it describes; undefined when there is no checkpoint. */
export async function readCheckpointState(path: string): Promise<CheckpointState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n').filter((l) => l.length > 0);
  let state: CheckpointState;
  try {
    const head = JSON.parse(lines[0] ?? '') as Pick<CheckpointState, 'version' | 'key' | 'generated_at'>;
    state = { version: head.version, key: head.key, generated_at: head.generated_at, portfolios: {} };
  } catch {
    throw new CheckpointMismatch(`the checkpoint ${path} is damaged; delete it and run again without --resume`);
  }
  for (const [k, line] of lines.slice(1).entries()) {
    let entry: Journal;
    try {
      entry = JSON.parse(line) as Journal;
    } catch {
      if (k === lines.length - 2) break; // torn by a crash mid-write: that chunk is valued again
      throw new CheckpointMismatch(`the checkpoint ${path} is damaged; delete it and run again without --resume`);
    }
    if ('c' in entry) {
      if (entry.c) state.consolidated = entry.c;
      else delete state.consolidated;
      continue;
    }
    const p = (state.portfolios[entry.p] ??= { valuations: [], scores: [] });
    if ('v' in entry) for (const [i, v] of Object.entries(entry.v)) p.valuations[Number(i)] = v;
    else if ('s' in entry) for (const [i, sc] of Object.entries(entry.s)) p.scores[Number(i)] = sc;
    else if (entry.e) p.enrichment = entry.e;
    else delete p.enrichment;
  }
  // Holes (never valued) read as null, as a fresh state has them.
  for (const p of Object.values(state.portfolios)) {
    p.valuations = Array.from(p.valuations, (v) => v ?? null);
    p.scores = Array.from(p.scores, (sc) => sc ?? null);
  }
  return state;
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
