import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { Redis } from 'ioredis';
import type { Currency } from '../../src/wire';
import type { PortfolioInput } from '../../src/holdings/types';
import type { ReportFormat } from '../report-data';
import type { PortfolioResults } from '../run/results';
import type { PortfolioLedger } from '../run/run-inputs';
import type { PreviousReport } from '../build/previous';
import type { Signed } from './queue-signer';
import type { Language } from '../../src/i18n/languages';
import type { InsuranceSettings } from '../../src/insurance/types';

import type { JobPast } from './job-past';

/** The one BullMQ queue of month-end portfolios; every run and every worker of a deployment uses it. */
export const QUEUE_NAME = 'svc-report-portfolios';

/** A portfolio is retried this many times (a worker lost, Redis away, the service failing) before the run reports it not valued. */
export const JOB_ATTEMPTS = 5;

/** What a worker needs to value one portfolio and write its reports: everything but the service's credentials (the workers' own configuration). */
export interface PortfolioJobData {
  /** The run's input (checkpointKey): the Redis journal is under it. */
  runKey: string;
  /**
   * This run of the month-end: random, chosen when the run starts (kept by --resume), named by
   * its job ids. A worker executes a job only while Redis holds its run's signed record, open,
   * listing this job (run-record.ts): a job kept from an earlier run is refused.
   */
  runId: string;
  portfolio: PortfolioInput;
  /** SHA-256 of the portfolio's canonical JSON, as the run's record lists it for this job. */
  portfolioSha256: string;
  /** When the job stops being valid (its run's end of life, ISO date-time): a worker refuses it after. */
  expiresAt: string;
  asOf: string;
  /** Reporting currency; the service is asked in `asked`. */
  currency: string;
  asked: Currency;
  /**
   * The run folder, relative to the worker's own --out (checked to stay inside it). A job names
   * no path for a worker to read: the rates and previous report travel as content.
   */
  folder: string;
  /** The run's exchange rates: stored once per run in Redis under their SHA-256 (rates-store.ts), which the worker checks. */
  fxRates?: { sha256: string; source: string };
  /** Present with --previous: this portfolio's previous report as read by the coordinating run (null: none found). */
  previous?: { report: PreviousReport | null };
  formats: ReportFormat[];
  preparedBy?: string;
  /**
   * The run's brand, by its digest (the brand file and every file it names): never a path. A
   * worker brands the reports with its own configured brand when the digests match and refuses
   * the job otherwise, so a job cannot make a worker read a file.
   */
  brand?: { firm: string; sha256: string };
  /** The run's --validated-warning (percent of value); absent from a job queued before it existed: the default. */
  validatedWarningPercent?: number;
  /** The run's --replacement and --insurance-tolerance (issue 37); absent from a job queued before they existed: the defaults. */
  insurance?: InsuranceSettings;
  /** The run's --allow-unknown-ids; absent from a job queued before it existed: false. */
  allowUnknownIds?: boolean;
  /** The run's --language (issue 36), for a portfolio without its own; absent from a job queued before it existed: en. */
  language?: Language;
  /** Fixed by the coordinating run, so every worker's reports carry the same generated_at. */
  generatedAt: string;
  sandbox: boolean;
  /** The portfolio's ledger up to asOf (its history's flows and sales); absent from a job queued before it existed. */
  ledger?: PortfolioLedger;
}

/** A job as stored in Redis: its data and the coordinating run's MAC over it (queue-signer.ts). */
export type SignedJob = Signed<PortfolioJobData>;

/** What a job's MAC is bound to: its id (a signed job copied under another id does not verify). */
export const jobPurpose = (id: string) => `job:${id}`;

export interface PortfolioJobResult {
  results: PortfolioResults;
  files: string[];
  notes: string[];
  rowErrors: boolean;
  /** Holdings not valued for a passing reason (--resume values them). */
  retryable: number;
  servedBySandbox: boolean;
  /** Journal entries in Redis the worker left out (MAC or data did not check) and valued again, described. */
  journalRefused: string[];
  /** The portfolio's past as the worker read it from its history database, for the consolidated report; absent from a result of a worker before it existed. */
  past?: JobPast;
}

/** A job's result as the worker stores it: signed, bound to the job (`resultPurpose`). */
export type SignedResult = Signed<PortfolioJobResult>;
export const resultPurpose = (id: string) => `result:${id}`;

/**
 * One job per portfolio per run: adding it twice (a resumed run, same run id) finds the existing
 * job instead; another run of the same input has other ids, so a job kept from it never stands
 * in for this run's.
 */
export function jobId(runId: string, portfolio: string, index: number): string {
  // BullMQ job ids may not contain ':' (its key separator); the index keeps names that differ only in case apart.
  return `${runId}-${index}-${Buffer.from(portfolio).toString('base64url').slice(0, 40)}`;
}

/** The content digest a job and its run's record carry for its portfolio (canonical JSON, so key order does not matter). */
export function portfolioDigest(portfolio: unknown): string {
  return createHash('sha256').update(canonicalize(portfolio) ?? '', 'utf8').digest('hex');
}

/** A connection for BullMQ (blocking commands: it must retry for ever, BullMQ's requirement). */
export function bullConnection(url: string, name: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, connectionName: name, retryStrategy: (times) => Math.min(200 * times, 2000) });
  redis.on('error', () => {}); // reconnection is BullMQ's and ioredis's business; the gate reports Redis being away
  return redis;
}
