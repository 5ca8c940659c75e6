import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Cron } from 'croner';
import { UsageError } from './run/exit-codes';

export interface ScheduleOptions {
  cron: string;
  tz?: string;
  /** The base output folder: each run writes into BASE/YYYY-MM/. */
  out: string;
  /** Stop after this many runs (for a one-off catch-up, and tests). */
  maxRuns?: number;
}

/** An IANA zone name the runtime knows, or a UsageError naming --tz (croner would blame the pattern). */
export function checkTimeZone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new UsageError(`--tz "${tz}" is not a time zone: give an IANA name such as Europe/London, America/New_York or UTC`);
  }
}

/** "2026-11" for a day in the schedule's time zone. */
export function monthFolder(at: Date, tz?: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}`;
}

/** The latest YYYY-MM folder under `base` before `month`: the previous run, passed as --previous. */
export async function previousMonthFolder(base: string, month: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(base);
  } catch {
    return undefined;
  }
  const earlier = names.filter((n) => /^\d{4}-\d{2}$/.test(n) && n < month).sort();
  const last = earlier[earlier.length - 1];
  return last ? join(base, last) : undefined;
}

/**
 * Runs `runOnce` on the cron schedule, never two at once (croner's protect: an overlapping
 * tick is skipped and said so). Each run gets its month's folder and the previous month's.
 * Resolves when maxRuns runs are done (never, without maxRuns), with the last run's exit code.
 */
export function runOnSchedule(
  opts: ScheduleOptions,
  runOnce: (run: { out: string; previous?: string }) => Promise<number>,
  log: (line: string) => void,
): { done: Promise<number>; stop(): void } {
  if (opts.tz !== undefined) checkTimeZone(opts.tz);
  let job: Cron;
  let lastCode = 0;
  let runs = 0;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));
  try {
    job = new Cron(
      opts.cron,
      {
        timezone: opts.tz,
        protect: () => log(`Skipped the run due at ${new Date().toISOString()}: the previous run is still going.`),
        catch: (e) => log(`The scheduled run failed: ${(e as Error).message}`),
      },
      async () => {
        const month = monthFolder(new Date(), opts.tz);
        const out = join(opts.out, month);
        const previous = await previousMonthFolder(opts.out, month);
        log(`Scheduled run for ${month} into ${out}${previous ? `, compared with ${previous}` : ''}.`);
        lastCode = await runOnce({ out, previous });
        runs++;
        if (opts.maxRuns !== undefined && runs >= opts.maxRuns) {
          job.stop();
          finish(lastCode);
        } else {
          const next = job.nextRun();
          log(`Next run: ${next ? next.toISOString() : 'none'}.`);
        }
      },
    );
  } catch (e) {
    throw new UsageError(`--cron "${opts.cron}" is not a valid cron pattern: ${(e as Error).message}`);
  }
  const next = job.nextRun();
  if (!next) throw new UsageError(`--cron "${opts.cron}" never fires`);
  log(`Scheduled "${opts.cron}"${opts.tz ? ` (${opts.tz})` : " (this machine's time zone)"}; first run at ${next.toISOString()}.`);
  return {
    done,
    stop: () => {
      job.stop();
      finish(lastCode);
    },
  };
}
