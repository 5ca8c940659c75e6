import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { parseRates, type RateTable } from '../../src/fx';

/** As long as a run's journal: a month-end resumed within the week still finds its rates. */
const RATES_TTL_S = 7 * 24 * 3600;

const key = (sha256: string) => `svc-report:rates:${sha256}`;
const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Where a job finds the run's rates: their SHA-256 (in the signed job) and the file's name (for the reports' Method text). */
export interface RatesRef {
  sha256: string;
  source: string;
}

/**
 * The coordinating run stores its rates file's text once, under its SHA-256, instead of handing
 * each worker a path (which a forged job could point at any file) or copying megabytes of the
 * ECB's history into every job.
 */
export async function storeRates(redis: Redis, text: string, source: string): Promise<RatesRef> {
  const sha256 = sha256Of(text);
  await redis.set(key(sha256), text, 'EX', RATES_TTL_S);
  return { sha256, source };
}

/** A job's rates could not be used; the message quotes nothing of the stored text. */
export class RatesUnavailable extends Error {
  override name = 'RatesUnavailable';
  constructor(
    message: string,
    /** Trying again cannot help (the stored text is not what the signed job names). */
    readonly final: boolean,
  ) {
    super(message);
  }
}

/** The rates a (verified) job names: the stored text whose SHA-256 is the job's, parsed; each table kept for the worker's next job. */
export class RatesCache {
  private readonly tables = new Map<string, Promise<RateTable>>();

  constructor(private readonly redis: Redis) {}

  get(ref: RatesRef): Promise<RateTable> {
    const id = `${ref.sha256}/${ref.source}`;
    let table = this.tables.get(id);
    if (!table) {
      table = this.load(ref);
      this.tables.set(id, table);
      table.catch(() => this.tables.delete(id));
    }
    return table;
  }

  private async load(ref: RatesRef): Promise<RateTable> {
    const text = await this.redis.get(key(ref.sha256));
    if (text === null) throw new RatesUnavailable(`the run's exchange rates (sha256 ${ref.sha256.slice(0, 12)}…) are no longer in Redis: run the same command again with --resume`, false);
    if (sha256Of(text) !== ref.sha256) throw new RatesUnavailable('the exchange rates stored in Redis are not the ones the job names (their SHA-256 differs)', true);
    try {
      return parseRates(text, ref.source);
    } catch {
      // The coordinating run parsed this very text; its parser's message would quote a line of it.
      throw new RatesUnavailable('the exchange rates the job names do not parse', true);
    }
  }
}
