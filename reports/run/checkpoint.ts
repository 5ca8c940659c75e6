import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Performance } from '../../src/wire';
import type { Section } from '../report-data';
import type { PortfolioInput } from '../input/types';
import type { ItemResult, PortfolioResults, ScoreLite } from './results';

export const CHECKPOINT_FILE = '.svc-report-checkpoint.json';
const VERSION = 1;

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

/**
 * The checkpoint in the output folder: written after every chunk (temp file, then rename,
 * so a crash mid-write leaves the previous one whole), read back by --resume, removed when
 * the run finishes.
 */
export class Checkpoint {
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
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return undefined;
    }
    let state: CheckpointState;
    try {
      state = JSON.parse(text) as CheckpointState;
    } catch {
      throw new CheckpointMismatch(`the checkpoint ${path} is damaged; delete it and run again without --resume`);
    }
    if (state.version !== VERSION || state.key !== key) {
      throw new CheckpointMismatch(
        `the checkpoint ${path} belongs to a run with other holdings, as-of date, currency or service; run the same command as before with --resume, or delete it to start afresh`,
      );
    }
    return new Checkpoint(path, state);
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

  async save(): Promise<void> {
    await mkdir(join(this.path, '..'), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(this.state));
    await rename(tmp, this.path);
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
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
