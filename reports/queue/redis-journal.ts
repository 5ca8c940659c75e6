import type { Redis } from 'ioredis';
import type { PortfolioState, RunJournal, CheckpointState } from '../run/checkpoint';
import type { ItemResult, ScoreLite } from '../run/results';

/** How long a run's journal outlives its last write (a month-end resumed within the week). */
const JOURNAL_TTL_S = 7 * 24 * 3600;

/**
 * The per-chunk journal in Redis (queue mode): one hash per portfolio, one field per holding's
 * valuation (v:INDEX) and score (s:INDEX), and the enrichment (e). A chunk is one HSET, so it
 * lands whole or not at all; a worker that takes over a portfolio reads what landed and values
 * only the rest.
 */
export class RedisJournal implements RunJournal {
  readonly state: Pick<CheckpointState, 'consolidated'> = {};
  private readonly portfolios = new Map<string, PortfolioState>();

  constructor(
    private readonly redis: Redis,
    private readonly runKey: string,
  ) {}

  /** Reads what already landed for these portfolios (and the consolidated performance). */
  async load(names: readonly string[]): Promise<this> {
    for (const name of names) {
      const fields = await this.redis.hgetall(this.key(name));
      const state: PortfolioState = { valuations: [], scores: [] };
      for (const [field, raw] of Object.entries(fields)) {
        const value = JSON.parse(raw) as unknown;
        if (field === 'e') state.enrichment = value as PortfolioState['enrichment'];
        else if (field.startsWith('v:')) state.valuations[Number(field.slice(2))] = value as ItemResult;
        else if (field.startsWith('s:')) state.scores[Number(field.slice(2))] = value as ScoreLite | false;
      }
      state.valuations = Array.from(state.valuations, (v) => v ?? null);
      state.scores = Array.from(state.scores, (s) => s ?? null);
      this.portfolios.set(name, state);
    }
    const consolidated = await this.redis.get(this.consolidatedKey());
    if (consolidated) this.state.consolidated = JSON.parse(consolidated) as CheckpointState['consolidated'];
    return this;
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
    if (e) await this.redis.multi().hset(this.key(name), 'e', JSON.stringify(e)).expire(this.key(name), JOURNAL_TTL_S).exec();
  }

  async dropEnrichment(name: string): Promise<void> {
    delete this.portfolio(name).enrichment;
    delete this.state.consolidated;
    await this.redis.multi().hdel(this.key(name), 'e').del(this.consolidatedKey()).exec();
  }

  async recordConsolidated(): Promise<void> {
    if (this.state.consolidated) await this.redis.set(this.consolidatedKey(), JSON.stringify(this.state.consolidated), 'EX', JOURNAL_TTL_S);
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
      if (item !== null && item !== undefined) fields.push(`${kind}:${i}`, JSON.stringify(item));
    }
    if (fields.length === 0) return;
    // MULTI/EXEC: the chunk and the key's expiry land together or not at all.
    const done = await this.redis.multi().hset(this.key(name), ...fields).expire(this.key(name), JOURNAL_TTL_S).exec();
    const failed = done?.find(([err]) => err);
    if (!done || failed) throw failed?.[0] ?? new Error('Redis did not record the chunk');
  }

  private key(name: string): string {
    return `svc-report:journal:{${this.runKey}}:p:${Buffer.from(name).toString('base64url')}`;
  }

  private consolidatedKey(): string {
    return `svc-report:journal:{${this.runKey}}:consolidated`;
  }
}
