import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { PortfolioState, RunJournal, CheckpointState } from '../run/checkpoint';
import { Enrichment, ItemResult, ScoreLite, section } from '../run/checkpoint-schema';
import { Performance } from '../../src/wire';
import type { ItemResult as Valuation, ScoreLite as Score } from '../run/results';
import type { QueueSigner } from './queue-signer';

/** How long a run's journal outlives its last write (a month-end resumed within the week). */
const JOURNAL_TTL_S = 7 * 24 * 3600;

/**
 * The per-chunk journal in Redis (queue mode): one hash per portfolio, one field per holding's
 * valuation (v:INDEX) and score (s:INDEX), and the enrichment (e). A chunk is one HSET, so it
 * lands whole or not at all; a worker that takes over a portfolio reads what landed and values
 * only the rest.
 *
 * Every field is stored signed ({d, m}: queue-signer.ts), its MAC bound to the run, the
 * portfolio and the field. On load an entry that does not verify, or whose data is not what its
 * kind may hold, is left out (its holdings are valued again) and named in `refused`.
 */
export class RedisJournal implements RunJournal {
  readonly state: Pick<CheckpointState, 'consolidated'> = {};
  private readonly portfolios = new Map<string, PortfolioState>();
  /** Entries load() left out because their MAC or their data did not check, described for the run's output. */
  readonly refused: string[] = [];

  constructor(
    private readonly redis: Redis,
    private readonly runKey: string,
    private readonly signer: QueueSigner,
  ) {}

  /** Reads what already landed for these portfolios (and the consolidated performance). */
  async load(names: readonly string[]): Promise<this> {
    for (const name of names) {
      const fields = await this.redis.hgetall(this.key(name));
      const state: PortfolioState = { valuations: [], scores: [] };
      // In holding order (Redis gives a hash's fields in any order), so what is refused is said in that order.
      for (const [field, raw] of Object.entries(fields).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
        const m = FIELD.exec(field);
        const kind = (m?.[1] ?? m?.[3]) as keyof typeof FIELD_KINDS | undefined;
        const value = kind ? this.open(this.purpose(name, field), raw, FIELD_KINDS[kind]) : undefined;
        if (!m || value === undefined) {
          this.refused.push(`"${name}" ${describeField(field)}`);
          continue;
        }
        if (kind === 'e') state.enrichment = value as PortfolioState['enrichment'];
        else if (kind === 'v') state.valuations[Number(m[2])] = value as Valuation;
        else state.scores[Number(m[2])] = value as Score | false;
      }
      state.valuations = Array.from(state.valuations, (v) => v ?? null);
      state.scores = Array.from(state.scores, (s) => s ?? null);
      this.portfolios.set(name, state);
    }
    const consolidated = await this.redis.get(this.consolidatedKey());
    if (consolidated !== null) {
      const value = this.open(this.purpose('', 'consolidated'), consolidated, Consolidated);
      if (value === undefined) this.refused.push('the consolidated performance');
      else this.state.consolidated = value as CheckpointState['consolidated'];
    }
    return this;
  }

  /** A stored field's data when its MAC verifies for `purpose` and the data fits `schema`; else undefined. */
  private open(purpose: string, raw: string, schema: z.ZodType): unknown {
    let stored: unknown;
    try {
      stored = JSON.parse(raw);
    } catch {
      return undefined;
    }
    const opened = this.signer.open(purpose, stored);
    const checked = opened && schema.safeParse(opened.data);
    return checked && checked.success ? checked.data : undefined;
  }

  portfolio(name: string): PortfolioState {
    let state = this.portfolios.get(name);
    if (!state) this.portfolios.set(name, (state = { valuations: [], scores: [] }));
    return state;
  }

  recordValuations(name: string, indices: readonly number[]): Promise<void> {
    return this.write(name, 'v', indices, this.portfolio(name).valuations);
  }

  recordScores(name: string, indices: readonly number[]): Promise<void> {
    return this.write(name, 's', indices, this.portfolio(name).scores);
  }

  async recordEnrichment(name: string): Promise<void> {
    const e = this.portfolio(name).enrichment;
    if (e) await this.redis.multi().hset(this.key(name), 'e', this.signed(name, 'e', e)).expire(this.key(name), JOURNAL_TTL_S).exec();
  }

  async dropEnrichment(name: string): Promise<void> {
    delete this.portfolio(name).enrichment;
    delete this.state.consolidated;
    await this.redis.multi().hdel(this.key(name), 'e').del(this.consolidatedKey()).exec();
  }

  async recordConsolidated(): Promise<void> {
    if (this.state.consolidated) await this.redis.set(this.consolidatedKey(), JSON.stringify(this.signer.sign(this.purpose('', 'consolidated'), this.state.consolidated)), 'EX', JOURNAL_TTL_S);
  }

  /** Every write is awaited where it is made. */
  async flush(): Promise<void> {}

  /** Forgets the run (a fresh run of the same input, or a run that finished with nothing left to value). */
  async remove(names: readonly string[]): Promise<void> {
    await this.redis.del(...names.map((n) => this.key(n)), this.consolidatedKey());
  }

  private async write(name: string, kind: 'v' | 's', indices: readonly number[], items: readonly unknown[]): Promise<void> {
    const fields: string[] = [];
    for (const i of indices) {
      const item = items[i];
      if (item !== null && item !== undefined) fields.push(`${kind}:${i}`, this.signed(name, `${kind}:${i}`, item));
    }
    if (fields.length === 0) return;
    // MULTI/EXEC: the chunk and the key's expiry land together or not at all.
    const done = await this.redis.multi().hset(this.key(name), ...fields).expire(this.key(name), JOURNAL_TTL_S).exec();
    const failed = done?.find(([err]) => err);
    if (!done || failed) throw failed?.[0] ?? new Error('Redis did not record the chunk');
  }

  /** What an entry's MAC is bound to: this run, this portfolio, this field (a holding's position). */
  private purpose(name: string, field: string): string {
    return `journal:${this.runKey}:${Buffer.from(name).toString('base64url')}:${field}`;
  }

  private signed(name: string, field: string, data: unknown): string {
    return JSON.stringify(this.signer.sign(this.purpose(name, field), data));
  }

  private key(name: string): string {
    return `svc-report:journal:{${this.runKey}}:p:${Buffer.from(name).toString('base64url')}`;
  }

  private consolidatedKey(): string {
    return `svc-report:journal:{${this.runKey}}:consolidated`;
  }
}

/** A journal field: a holding's valuation (v:INDEX) or score (s:INDEX), or the enrichment (e). */
const FIELD = /^(?:([vs]):(0|[1-9]\d{0,6})|(e))$/;
const FIELD_KINDS = { v: ItemResult, s: z.union([ScoreLite, z.literal(false)]), e: Enrichment };
const Consolidated = z.object({ performance: section(Performance) });

function describeField(field: string): string {
  const m = FIELD.exec(field);
  if (!m) return 'an entry that is not one of a journal';
  if (m[3]) return 'enrichment (performance, projections, exits)';
  return `holding ${Number(m[2]) + 1}'s ${m[1] === 'v' ? 'valuation' : 'score'}`;
}
