import { Redis } from 'ioredis';
import type { Currency } from '../../src/wire';
import type { PortfolioInput } from '../../src/holdings/types';
import type { ReportFormat } from '../report-data';
import type { PortfolioResults } from '../run/results';
import type { PortfolioLedger } from '../run/run-inputs';

/** The one BullMQ queue of month-end portfolios; every run and every worker of a deployment uses it. */
export const QUEUE_NAME = 'svc-report-portfolios';

/** A portfolio is retried this many times (a worker lost, Redis away, the service failing) before the run reports it not valued. */
export const JOB_ATTEMPTS = 5;

/** What a worker needs to value one portfolio and write its reports: everything but the service's credentials (the workers' own configuration). */
export interface PortfolioJobData {
  /** The run (checkpointKey): job ids and the Redis journal are under it. */
  runKey: string;
  portfolio: PortfolioInput;
  asOf: string;
  /** Reporting currency; the service is asked in `asked`. */
  currency: string;
  asked: Currency;
  /** Absolute paths every worker reaches (a shared folder). */
  fxRates?: string;
  previous?: string;
  outDir: string;
  formats: ReportFormat[];
  preparedBy?: string;
  /** The run's brand file, absolute (every worker reads it from the shared file system, as it writes into the shared output folder). */
  brandFile?: string;
  /** The run's --validated-warning (percent of value); absent from a job queued before it existed: the default. */
  validatedWarningPercent?: number;
  /** The run's --allow-unknown-ids; absent from a job queued before it existed: false. */
  allowUnknownIds?: boolean;
  /** Fixed by the coordinating run, so every worker's reports carry the same generated_at. */
  generatedAt: string;
  sandbox: boolean;
  /** The portfolio's ledger up to asOf (its history's flows and sales); absent from a job queued before it existed. */
  ledger?: PortfolioLedger;
}

export interface PortfolioJobResult {
  results: PortfolioResults;
  files: string[];
  notes: string[];
  rowErrors: boolean;
  /** Holdings not valued for a passing reason (--resume values them). */
  retryable: number;
  servedBySandbox: boolean;
}

/** One job per portfolio per run: adding it twice (a resumed run) finds the existing job instead. */
export function jobId(runKey: string, portfolio: string, index: number): string {
  // BullMQ job ids may not contain ':' (its key separator); the index keeps names that differ only in case apart.
  return `${runKey.slice(0, 32)}-${index}-${Buffer.from(portfolio).toString('base64url').slice(0, 40)}`;
}

/** A connection for BullMQ (blocking commands: it must retry for ever, BullMQ's requirement). */
export function bullConnection(url: string, name: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, connectionName: name, retryStrategy: (times) => Math.min(200 * times, 2000) });
  redis.on('error', () => {}); // reconnection is BullMQ's and ioredis's business; the gate reports Redis being away
  return redis;
}
