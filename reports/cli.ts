import { REPLACEMENT_BASES } from '../src/insurance/types';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ServiceError } from '../src/client/errors';
import { CURRENCIES, TIER_NAMES } from '../src/wire';
import { InputError } from '../src/holdings/types';
import { CSV_HEADERS, DEFAULT_CSV_HEADERS, DEFAULT_FORMATS, REPORT_FORMATS, type CsvHeaders } from './report-data';
import { CheckpointMismatch } from './run/checkpoint';
import { EXIT, InterruptedError, UsageError } from './run/exit-codes';
import type { Progress } from './run/progress';
import type { RunIo, RunOptions } from './run/run-job';
import { createOutDir, prepareOutDir, removeCreatedIfEmpty } from './out-dir';
import { printable, printableLines } from '../src/printable';
import { packageRoot } from '../src/package-root';
import { configureLog, logFormatOption, processLog, say } from './ops/process-log';
import { healthHostOption, healthPortOption, metricsHostOption, metricsPortOption } from './ops/metrics-listener';
import { historyCommand } from './history/command';
import { dbWaitOption } from './history/database-target';
import { signoffCommands } from './signoff/command';
import { manifestKeyOption } from './manifest-key';
import { brandCommand, brandRootOption } from './brand-check';
import { LanguageError, parseLanguage, supportedLanguages, type Language } from '../src/i18n/languages';

/**
 * `svc-report`: the month-end report job. Stdout lists written files only; everything else goes
 * to stderr through the process log (reports/ops/process-log.ts): JSON lines or, on a terminal,
 * human lines made printable (names from holdings files cannot forge or colour a line).
 */
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function printableProgress(p: Progress): Progress {
  return {
    update: (s) => p.update({ ...s, label: printable(s.label) }),
    log: (line) => p.log(printable(line)),
    stop: () => p.stop(),
  };
}

function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number of at least 1.`);
    return n;
  };
}

function percentOfValue(name: string, example = 80) {
  return (value: string): number => {
    const n = Number(value.trim().replace(/\s*%$/, ''));
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError(`${name} must be a percent of value from 0 to 100, e.g. ${example}.`);
    return n;
  };
}

/** A positive amount (--round 500, 0.5). */
function positiveAmount(name: string) {
  return (value: string): number => {
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1e12) throw new InvalidArgumentError(`${name} must be a positive amount, e.g. 500.`);
    return n;
  };
}

/** The options `run` and `schedule` share; a scheduled run sets its as-of day, previous folder and resuming itself. */
function withRunOptions(cmd: Command, outHelp: string, scheduled = false): Command {
  cmd.requiredOption('--out <dir>', outHelp).option('--formats <list>', `comma-separated report formats: ${REPORT_FORMATS.join(', ')} (default: ${DEFAULT_FORMATS.join(',')})`);
  if (!scheduled) {
    cmd
      .option('--as-of <date>', 'valuation date YYYY-MM-DD (default: today, UTC); with the sandbox, values are as of that day')
      .option('--previous <dir>', "a previous run's output folder: adds month-on-month change from its JSON reports")
      .option('--resume', 'continue an interrupted run from the checkpoint in --out')
      .option('--queue', 'value the portfolios on the BullMQ queue in Redis (needs --redis, SVC_BASE_URL and SVC_QUEUE_SECRET): `svc-report worker` processes do the work, this run waits and writes the consolidated report (docs/scale-out.md)')
      .option('--worker-folder <path>', "with --queue: the run's folder relative to the workers' --out (default: the last part of --out)")
      .addOption(new Option('--worker-wait <seconds>', 'with --queue: say so when no worker has taken a portfolio after this long (default 30)').argParser(positiveInt('--worker-wait')));
  }
  cmd
    .option('--decimal-comma', 'the holdings files write amounts as 1.234,56 (default: each column\'s own convention; an amount like 12.500 that could be read either way is refused)')
    .option('--no-decimal-comma', 'the holdings files write amounts as 1,234.56')
    .option(
      '--ignore-column <name>',
      'leave out a holdings-file column that resembles one the reports read (e.g. "Quantiy"), which otherwise stops the run; repeat for several (also "ignore_columns" in the config)',
      (name: string, names: string[] = []) => [...names, name],
    )
    .option(
      '--allow-unknown-ids',
      'value a holding whose asset_id the service did not issue from the details its row gives (those its id encodes), noted for the analyst, instead of refusing the row (also "allow_unknown_ids" in the config)',
    );
  return cmd
    .option('--currency <code>', `report currency: any ISO 4217 code; other than ${CURRENCIES.join(', ')} it needs --fx-rates (default: the holdings' currency, else USD)`)
    .option('--fx-rates <file>', "exchange rates per 1 EUR: the ECB's eurofxref-hist.csv as published, or a date,currency,rate_per_eur csv; converts purchases at their date's rate and values at the as-of date's")
    .addOption(new Option('--tier <tier>', 'the account tier (paces requests; picks the demo account with the embedded sandbox)').choices(TIER_NAMES))
    .option('--config <file>', 'config file (default: ./svc-report.config.json when present)')
    .addOption(new Option('--concurrency <n>', "calls in flight at most (default: sized from the account's pace and the service's round trip, at most 32)").argParser(positiveInt('--concurrency')))
    .addOption(
      new Option('--validated-warning <percent>', "when less of a portfolio's value than this is market validated, its summary page names the holdings not validated (default: 80, or validated_warning in the config)").argParser(
        percentOfValue('--validated-warning'),
      ),
    )
    .addOption(replacementOption())
    .addOption(insuranceToleranceOption())
    .addOption(dbOption())
    .addOption(dbWaitOption())
    .addOption(brandOption())
    .addOption(brandRootOption())
    .addOption(languageOption())
    .addOption(csvHeadersOption())
    .addOption(minuteMsOption())
    .addOption(sandboxLogOption())
    .addOption(redisOption())
    .addOption(manifestKeyOption())
    .addOption(metricsPortOption())
    .addOption(metricsHostOption())
    .addOption(logFormatOption());
}

/** Redis shared by every process of the account: one rate budget (and the queue for --queue / worker). */
const redisOption = () => new Option('--redis <url>', "Redis shared by every process using the account, e.g. redis://10.0.0.5:6379: they share its rate budget (default: SVC_REDIS_URL, else redis_url in the config, else this process alone)");

/** Options for tests and benchmarks: a shortened rate window, the embedded sandbox's request log. */
const minuteMsOption = () =>
  new Option('--minute-ms <n>', 'length of the per-minute rate window in ms, for the client and the embedded sandbox (tests shorten it)').argParser(positiveInt('--minute-ms'));
const sandboxLogOption = () => new Option('--sandbox-log <file>', 'embedded sandbox only: append its JSONL request log here (counts calls)');

/** --brand: the firm's brand file for the client documents (issue 28). */
/** The insurance review's replacement basis (issue 37), for the month-end and the broker's schedule alike. */
const replacementOption = () =>
  new Option('--replacement <estimate>', "the insurance review's replacement value: the valuation's high estimate (default) or its mid (or replacement in the config)").choices(REPLACEMENT_BASES);
/** The insurance review's tolerance (issue 37): the same statuses in the month-end and in the schedule made from it. */
const insuranceToleranceOption = () =>
  new Option('--insurance-tolerance <percent>', 'how far below the replacement value an insured value may be before it is under-insured (default: 10, or insurance_tolerance in the config)').argParser(
    percentOfValue('--insurance-tolerance', 10),
  );
const brandOption = () => new Option('--brand <file>', "the firm's brand file (logo, colours, fonts, disclosures, relationship managers) for the PDF and xlsx; also \"brand\" in the config. Check one with `svc-report brand check FILE`");

/** --csv-headers: the CSV's header row in the report's language, or the machine-stable English keys for import pipelines (issue 36). */
const csvHeadersOption = () =>
  new Option('--csv-headers <style>', `the CSV's header row: localised (the report's language; English documents keep the keys) or english (the machine-stable keys such as asset_id, in every language, for import pipelines); also "csv_headers" in the config (default: ${DEFAULT_CSV_HEADERS})`).choices(CSV_HEADERS);

/** --language: the client documents' language where a portfolio gives none, and the consolidated report's (issue 36). */
const languageOption = (help = 'language of the client documents for portfolios without a language column, and of the consolidated report') =>
  new Option('--language <tag>', `${help}: ${supportedLanguages()} (default: en)`).argParser((tag: string) => {
    try {
      return parseLanguage(tag, '--language');
    } catch (e) {
      // Commander says it as bad usage (exit 2), listing the supported tags.
      if (e instanceof LanguageError) throw new InvalidArgumentError(e.message);
      throw e;
    }
  });

/** --db: the history database every month-end is recorded in (issue 23). */
function dbOption(): Option {
  return new Option('--db <folder|url>', 'history database: a folder (embedded, the default under ~/.local/share/svc-report/db), postgres://… for a server shared by every worker and add-in host, or off (also SVC_DB_URL, "db" in the config)');
}

const ENV_HELP = `
Service: SVC_BASE_URL (including /v1), SVC_CLIENT_ID and SVC_CLIENT_SECRET, or the config file.
Without a base URL the embedded sandbox is started and the reports are marked as sandbox data.

Exit codes: 0 every holding valued; 3 finished but some holdings were not valued (listed in
the reports' errors) or ledger rows were refused (listed on stderr); 2 bad usage or unreadable input; 1 anything else; 130 interrupted
(run again with --resume). See docs/report-job.md.`;

/** How long the run may take to stop cleanly after the first Ctrl-C or SIGTERM before it is ended anyway. */
const STOP_GRACE_MS = 5_000;

/**
 * Ctrl-C or SIGTERM: the first one aborts the run (requests in flight are cancelled, the
 * checkpoint kept) and, whatever the run is stuck in, the process ends within STOP_GRACE_MS
 * with exit 130; a second one quits at once.
 */
function interruptible(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  // Every call in flight (up to the concurrency window, across portfolios) listens to the run's signal.
  setMaxListeners(0, controller.signal);
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    say('Stopping: cancelling the requests in flight and keeping the checkpoint (Ctrl-C again to quit at once)…');
    controller.abort();
    setTimeout(() => {
      say(`svc-report: did not stop within ${STOP_GRACE_MS / 1000} s; quitting (what was checkpointed is kept: run again with --resume).`);
      process.exit(EXIT.interrupted);
    }, STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    },
  };
}

type RunMetrics = Awaited<ReturnType<typeof import('./ops/metrics-listener').runMetrics>>;

/** `listener`: a schedule's, kept across its runs; otherwise --metrics-port opens one for this run. */
/** Files a signed manifest no longer vouches for: the folder's earlier manifest did not verify under the key. */
function sayNotCarried(names: string[]): void {
  if (names.length === 0) return;
  say(`Warning: the folder's earlier manifest.json did not verify under the manifest key (unsigned, another key, or edited), so ${plural(names.length, 'file')} it listed ${names.length === 1 ? 'is' : 'are'} not in the new signed one (${names.map(printable).join(', ')}); verify names ${names.length === 1 ? 'it' : 'them'} UNLISTED.`);
}

/** The run's last line: what is missing, in the user's terms. */
function doneLine(outcome: { exitCode: number; sectionsLeftOut?: string[]; ledgerRowsRefused?: number; otherProblems?: boolean }, written: string): string {
  if (outcome.exitCode === EXIT.ok) return `Done: every holding valued; ${written}.`;
  const sections = outcome.sectionsLeftOut?.length ?? 0;
  // Refused ledger rows are named above; the rest is said only when there is more than them.
  const refused = outcome.ledgerRowsRefused ?? 0;
  if (refused > 0 && outcome.otherProblems === false && sections === 0) return `Done with problems: ${plural(refused, 'ledger row')} refused (listed above; the rest of each ledger is reported); every holding held was valued; ${written}.`;
  if (refused > 0) return `Done with problems: ${plural(refused, 'ledger row')} refused (listed above); ${sections > 0 ? `${plural(sections, 'report section')} left out because the service failed (named above); ` : ''}any holding not valued is in the reports' errors; ${written}.`;
  if (sections === 0) return `Done with problems: some holdings were not valued (see the errors in the reports); ${written}.`;
  return `Done with problems: ${plural(sections, 'report section')} left out because the service failed (named above); any holding not valued is in the reports' errors; ${written}.`;
}

/**
 * What `run` and `insurance-schedule` check before any holding is read or call spent; answers the
 * folders it created for --out (removed again if nothing is written).
 */
async function checkedBeforeAnyCall(files: string[], opts: { out: string; brand?: string; brandRoot?: string; config?: string; manifestKey?: string }): Promise<string[]> {
  // A bad brand file stops the run before anything is written (not even --out created).
  (await import('./config')).checkBrand(opts);
  // A file in the way or a folder that cannot be written is said plainly, and so is a manifest key that cannot be used.
  const { created } = await createOutDir(opts.out);
  try {
    (await import('./manifest-key')).resolveManifestKey(opts);
    // Sizes first, before the writers' heavy modules load: a file far past a limit is refused at once.
    await (await import('../src/holdings/limits')).checkInputLimits(files);
  } catch (e) {
    await removeCreatedIfEmpty(created);
    throw e;
  }
  return created;
}

async function runCommand(files: string[], opts: Omit<RunOptions, 'files'> & { queue?: boolean; metricsPort?: number; metricsHost?: string }, scheduled?: RunMetrics, shared: Pick<RunIo, 'history' | 'writers'> = {}): Promise<number> {
  // Loaded here, not at the top: --help and usage errors stay fast (the writers pull in exceljs and pdfkit).
  const stop = interruptible();
  const log = processLog();
  const own = scheduled ? undefined : await (await import('./ops/metrics-listener')).runMetrics(opts, log);
  const listener = scheduled ?? own;
  let created: string[] = [];
  try {
    created = await checkedBeforeAnyCall(files, opts);
    const [{ runReports }, { createProgress, logProgress }, { loggingTelemetry }] = await Promise.all([import('./run/run-job'), import('./run/progress'), import('./ops/report-metrics')]);
    const run = opts.queue ? (await import('./queue/coordinator')).runQueued : runReports;
    const progress = log.format === 'json' ? logProgress(log) : printableProgress(createProgress());
    const outcome = await run({ ...opts, files }, { ...shared, signal: stop.signal, progress, telemetry: listener?.metrics ?? loggingTelemetry(log) });
    for (const f of outcome.files) process.stdout.write(`${printable(f)}\n`);
    if (outcome.files.length > 0) {
      const { removed, notCarried } = await (await import('./run-manifest')).recordRun('run', opts.out, opts, files, outcome.files);
      if (removed.length > 0) say(`Removed ${plural(removed.length, 'file')} an earlier run wrote for the same reports in formats this run did not write (${removed.map(printable).join(', ')}): the folder holds one run's version of each report.`);
      sayNotCarried(notCarried);
    }
    const written = `${plural(outcome.files.length, 'file')} written`;
    say(doneLine(outcome, written));
    return outcome.exitCode;
  } finally {
    // A run refused before it wrote anything leaves no empty --out folder behind.
    await removeCreatedIfEmpty(created);
    await own?.finish(stop.signal);
    stop.dispose();
  }
}

async function dashboardCommand(opts: { out: string; formats?: string; config?: string; tier?: string; minuteMs?: number; asOf?: string; sandboxLog?: string; manifestKey?: string; brand?: string; brandRoot?: string; language?: Language; csvHeaders?: CsvHeaders }): Promise<number> {
  const [{ resolveSettings, fixedGeneratedAt }, { connect }, { buildDashboard }, { writeDashboard }] = await Promise.all([
    import('./config'),
    import('./run/connect'),
    import('./dashboard'),
    import('./writers'),
  ]);
  const settings = resolveSettings(opts);
  (await import('./manifest-key')).resolveManifestKey(opts);
  const stop = interruptible();
  const { dir: outDir, created } = await createOutDir(opts.out);
  const { sayBrand } = await import('./run/brand-lines');
  sayBrand(settings.brand, say);
  const conn = await connect(settings.service, { asOf: settings.asOf, log: say, telemetry: { logger: processLog() } }).catch(async (e: unknown) => {
    await removeCreatedIfEmpty(created);
    throw e;
  });
  try {
    const data = await buildDashboard(conn.client, { asOf: settings.asOf, generatedAt: fixedGeneratedAt(process.env) ?? new Date().toISOString(), sandbox: conn.sandbox, signal: stop.signal, language: settings.language });
    const written = await writeDashboard({ ...data, ...(settings.brand ? { brand: settings.brand } : {}), csv_headers: settings.csvHeaders }, outDir, settings.formats);
    for (const w of written) process.stdout.write(`${printable(w.path)}\n`);
    sayNotCarried((await (await import('./run-manifest')).recordRun('dashboard', outDir, opts, [], written.map((w) => w.path))).notCarried);
    return EXIT.ok;
  } finally {
    await removeCreatedIfEmpty(created);
    stop.dispose();
    await conn.close();
  }
}

/** `insurance-schedule`: the broker's schedules, listed on stdout; recorded in the folder's manifest like the reports. */
async function insuranceScheduleCommand(files: string[], opts: import('./insurance/schedule-command').ScheduleOptions): Promise<number> {
  const stop = interruptible();
  let created: string[] = [];
  try {
    created = await checkedBeforeAnyCall(files, opts);
    const { writeInsuranceSchedules } = await import('./insurance/schedule-command');
    const outcome = await writeInsuranceSchedules(files, opts, { signal: stop.signal, log: say });
    for (const f of outcome.files) process.stdout.write(`${printable(f)}\n`);
    sayNotCarried((await (await import('./run-manifest')).recordRun('insurance-schedule', opts.out, opts, files, outcome.files)).notCarried);
    say(`Done: ${plural(outcome.files.length, 'file')} written; ${outcome.valuedNow === 0 ? 'no holding valued again' : `${plural(outcome.valuedNow, 'holding')} valued`}.`);
    return EXIT.ok;
  } finally {
    await removeCreatedIfEmpty(created);
    stop.dispose();
  }
}

function program(): Command {
  const root = new Command()
    .name('svc-report')
    .description('Month-end valuation reports for client portfolios of luxury assets, and a market dashboard.')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(printableLines(s)) })
    // Each command's log, from its --log-format, before its action says anything.
    .hook('preAction', (_root, command) => {
      configureLog(command.opts<{ logFormat?: string }>().logFormat, command.name() === 'worker' ? 'svc-report-worker' : 'svc-report');
    });

  withRunOptions(
    root
      .command('run')
      .description('Value the holdings files and write one report set per portfolio (and a consolidated one for several).')
      .argument('<files...>', 'holdings files and transactions files (a table with a type column): .csv, .xlsx or .json (one portfolio per file, sheet, or portfolio column value)'),
    'folder to write the reports into',
  )
    .addHelpText(
      'after',
      `\nExamples (each runs as written from the repository, the second compares with the first):\n  svc-report run examples/meridian-wealth-clients.csv --out out/2026-09 --as-of 2026-09-30\n  svc-report run examples/meridian-wealth-clients.csv --out out/2026-10 --as-of 2026-10-31 --previous out/2026-09\n${ENV_HELP}`,
    )
    .exitOverride()
    .action(async (files: string[], opts: Omit<RunOptions, 'files'>) => {
      process.exitCode = await runCommand(files, opts);
    });

  root
    .command('dashboard')
    .description('Write the market dashboard: segments, per-segment signals, top movers and active alerts.')
    .requiredOption('--out <dir>', 'folder to write the dashboard into')
    .option('--formats <list>', `comma-separated formats: ${REPORT_FORMATS.join(', ')} (default: ${DEFAULT_FORMATS.join(',')})`)
    .option('--as-of <date>', 'market date YYYY-MM-DD (default: today, UTC)')
    .addOption(new Option('--tier <tier>', 'the account tier').choices(TIER_NAMES))
    .option('--config <file>', 'config file (default: ./svc-report.config.json when present)')
    .addOption(brandOption())
    .addOption(brandRootOption())
    .addOption(languageOption("language of the dashboard's words (PDF, xlsx, the JSON's notes and segment names)"))
    .addOption(csvHeadersOption())
    .addOption(minuteMsOption())
    .addOption(sandboxLogOption())
    .addOption(manifestKeyOption())
    .addOption(logFormatOption())
    .addHelpText('after', `\nExample:\n  svc-report dashboard --out out/dashboard --formats pdf,xlsx\n${ENV_HELP}`)
    .exitOverride()
    .action(async (opts) => {
      process.exitCode = await dashboardCommand(opts);
    });

  withRunOptions(
    root
      .command('schedule')
      .description('Run `run` on a cron schedule: each run into its own month folder under --out, the previous month passed as --previous.')
      .argument('<holdings...>', 'holdings files, as for run')
      .requiredOption('--cron <pattern>', 'cron pattern, e.g. "0 6 1 * *" (06:00 on the 1st of every month); 6 fields add seconds')
      .option('--tz <zone>', 'IANA time zone of the pattern, e.g. Europe/London (default: this machine\'s)')
      .addOption(new Option('--max-runs <n>', 'stop after this many runs').argParser(positiveInt('--max-runs'))),
    'base folder: each run writes into BASE/YYYY-MM/',
    true,
  )
    .addHelpText('after', `\nExample:\n  svc-report schedule examples/hartley-family-office.xlsx --cron "0 6 1 * *" --tz Europe/London --out out/scheduled\n\nNever runs two at once. To use cron or a systemd timer instead, see docs/report-job.md.\n${ENV_HELP}`)
    .exitOverride()
    .action(async (files: string[], opts: Omit<RunOptions, 'files' | 'out' | 'previous'> & { out: string; cron: string; tz?: string; maxRuns?: number; metricsPort?: number; metricsHost?: string }) => {
      const { runOnSchedule } = await import('./schedule');
      await prepareOutDir(opts.out);
      // One metrics listener for the schedule's life, not one per run.
      const listener = await (await import('./ops/metrics-listener')).runMetrics(opts, processLog());
      const schedule = runOnSchedule({ cron: opts.cron, tz: opts.tz, out: opts.out, maxRuns: opts.maxRuns }, async ({ out, previous }) => {
        let code: number;
        try {
          // A run interrupted by a crash resumes on the next tick of the same month.
          code = await runCommand(files, { ...opts, out, previous, resume: true }, listener);
        } catch (e) {
          code = reportError(e);
        }
        // Ctrl-C during a run stops the schedule too, not just that run.
        if (code === EXIT.interrupted) schedule.stop();
        return code;
      }, say);
      let interrupted = false;
      const stopWhenIdle = () => {
        interrupted = true;
        say('Schedule stopped.');
        schedule.stop();
      };
      process.once('SIGINT', stopWhenIdle);
      process.once('SIGTERM', stopWhenIdle);
      const code = await schedule.done;
      await listener?.finish(AbortSignal.abort());
      process.off('SIGINT', stopWhenIdle);
      process.off('SIGTERM', stopWhenIdle);
      process.exitCode = interrupted ? EXIT.interrupted : code;
    });
  root
    .command('insurance-schedule')
    .description("Write the broker's insurance schedule per portfolio and insurer (xlsx and PDF): each item, its current insured value, the proposed value (the replacement value rounded up) and the change, from the same valuations as the month-end: what a month-end of the same day valued in the folder is not valued again.")
    .argument('<files...>', 'holdings files and transactions files, as for run, with insurance columns (insured_value, insurer, policy, renewal_date, serial)')
    .requiredOption('--out <dir>', "folder to write the schedules into; a month-end's folder of the same day has its valuations reused")
    .option('--portfolio <name>', 'only this portfolio (its name as the files give it)')
    .option('--insurer <name>', "only this insurer's schedule (its name as the files give it)")
    .addOption(new Option('--round <step>', 'round the proposed values UP to a multiple of this amount (default 500)').argParser(positiveAmount('--round')))
    .addOption(replacementOption())
    .addOption(insuranceToleranceOption())
    .option('--from-run <dir>', "the month-end's folder whose valuations are reused (default: --out)")
    .option('--as-of <date>', 'valuation date YYYY-MM-DD (default: today, UTC)')
    .option('--currency <code>', 'report currency, as for run')
    .option('--fx-rates <file>', 'exchange rates, as for run')
    .addOption(new Option('--tier <tier>', 'the account tier').choices(TIER_NAMES))
    .option('--config <file>', 'config file (default: ./svc-report.config.json when present)')
    .option('--decimal-comma', "the holdings files write amounts as 1.234,56")
    .option('--no-decimal-comma', 'the holdings files write amounts as 1,234.56')
    .option('--ignore-column <name>', 'leave out a holdings-file column that resembles one the reports read; repeat for several', (name: string, names: string[] = []) => [...names, name])
    .addOption(new Option('--concurrency <n>', 'calls in flight at most').argParser(positiveInt('--concurrency')))
    .addOption(brandOption())
    .addOption(brandRootOption())
    .addOption(languageOption('language of the schedules for portfolios without a language column'))
    .addOption(minuteMsOption())
    .addOption(sandboxLogOption())
    .addOption(manifestKeyOption())
    .addOption(logFormatOption())
    .addHelpText('after', `\nExample (after the month-end into the same folder, the same day: no valuation is asked again):\n  svc-report run clients.xlsx --out out/2026-10 --as-of 2026-10-31\n  svc-report insurance-schedule clients.xlsx --out out/2026-10 --as-of 2026-10-31 --round 1000\n${ENV_HELP}`)
    .exitOverride()
    .action(async (files: string[], opts: import('./insurance/schedule-command').ScheduleOptions) => {
      process.exitCode = await insuranceScheduleCommand(files, opts);
    });
  root
    .command('worker')
    .description('Value month-end portfolios from the queue in Redis (runs started with `run --queue`), with the account\'s shared rate budget; any number, on any machine, with the same configuration. Runs until Ctrl-C or SIGTERM.')
    .requiredOption('--out <root>', "this worker's own folder: each job's run folder is inside it (a job naming a folder outside is refused)")
    .addOption(new Option('--tier <tier>', 'the account tier (paces requests)').choices(TIER_NAMES))
    .option('--config <file>', 'config file (default: ./svc-report.config.json when present)')
    .addOption(brandOption())
    .addOption(brandRootOption())
    .addOption(redisOption())
    .addOption(dbOption())
    .addOption(dbWaitOption())
    .addOption(minuteMsOption())
    .addOption(new Option('--portfolios <n>', 'portfolios this worker values at once (default 1)').argParser(positiveInt('--portfolios')))
    .addOption(new Option('--concurrency <n>', "calls in flight at most per portfolio (default: sized from the account's pace and the service's round trip)").argParser(positiveInt('--concurrency')))
    .addOption(new Option('--lock-ms <n>', "how long a portfolio stays with a worker that stopped answering before another takes it (default 30000)").argParser(positiveInt('--lock-ms')))
    .addOption(healthPortOption())
    .addOption(healthHostOption())
    .addOption(logFormatOption())
    .addOption(new Option('--ready-check-ms <n>', "how long /readyz keeps the service's answer before signing in again (default 60000; tests shorten it)").argParser(positiveInt('--ready-check-ms')))
    .addHelpText(
      'after',
      `\nExample (on each machine; the same service account, Redis, queue secret and a shared folder):\n  SVC_BASE_URL=https://api.example.com/v1 SVC_CLIENT_ID=… SVC_CLIENT_SECRET=… SVC_QUEUE_SECRET=… svc-report worker --out /shared/reports --redis redis://10.0.0.5:6379 --tier pro\n  SVC_QUEUE_SECRET=… svc-report run clients/*.xlsx --out /shared/reports/2026-10 --queue --redis redis://10.0.0.5:6379 --tier pro\n\nA job is executed only when its MAC under SVC_QUEUE_SECRET verifies and its data checks; its\nreports go into its run folder inside the worker's --out (2026-10 above), never outside.\nA worker killed mid-portfolio: another takes the portfolio after --lock-ms, without valuing again\nthe chunks that landed. See docs/scale-out.md.\n${ENV_HELP}`,
    )
    .exitOverride()
    .action(async (opts) => {
      const [{ startWorker }, { ReportMetrics, loggingTelemetry }, { workerHealth }] = await Promise.all([import('./queue/worker'), import('./ops/report-metrics'), import('./ops/metrics-listener')]);
      const stop = interruptible();
      const log = processLog();
      const metrics = opts.healthPort !== undefined ? new ReportMetrics(log) : undefined;
      const worker = await startWorker(opts, say, stop.signal, { telemetry: metrics ?? loggingTelemetry(log), metrics });
      const health = metrics && (await workerHealth(opts, log, worker, metrics));
      await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
      health?.stopping();
      say('Worker stopping: portfolios in hand go back to the queue for another worker.');
      await worker.close();
      await health?.close();
      stop.dispose();
      process.exitCode = EXIT.ok;
    });

  root
    .command('verify')
    .description("Check a report folder against its manifest.json: its signature, every file's SHA-256 and size; names each file changed, missing or not a regular file (exit 1). Given one signed PDF (as a client receives it), checks its signature alone: covers the whole file, digest, signer, chain to --ca, timestamp.")
    .argument('<dir|file.pdf>', 'a folder a run or dashboard wrote, or one signed report PDF')
    .addOption(manifestKeyOption())
    .option('--config <file>', 'config file, for manifest_key_file (default: ./svc-report.config.json when present)')
    .option('--ca <file>', "PEM file of the CA certificate(s) signed PDFs' certificates must chain to (approvals and signatures are checked either way)")
    .option('--require-signature', 'fail (exit 1) when the manifest is unsigned or no key is configured to check its signature, instead of warning')
    .addOption(new Option('--time-limit <seconds>', 'stop reading and fail after this long in all (default 600)').argParser(positiveInt('--time-limit')))
    .addOption(logFormatOption())
    .exitOverride()
    .action(async (dir: string, opts: { manifestKey?: string; config?: string; requireSignature?: boolean; timeLimit?: number; ca?: string }) => {
      const [{ verifyDirectory, describeVerification, DEFAULT_VERIFY_TIME_LIMIT_S }, { ManifestError }, { resolveManifestKey }, { verifyTargetKind, verifyPdf }] = await Promise.all([import('./verify'), import('./run-manifest'), import('./manifest-key'), import('./verify-pdf')]);
      // One delivered PDF, as a client or auditor holds it: its signature alone (verify-pdf.ts).
      if ((await verifyTargetKind(dir)) === 'file') {
        const { passed, lines } = await verifyPdf(dir, { ca: opts.ca, timeLimitMs: (opts.timeLimit ?? DEFAULT_VERIFY_TIME_LIMIT_S) * 1000 });
        for (const line of lines) process.stdout.write(`${printable(line)}\n`);
        process.exitCode = passed ? EXIT.ok : EXIT.failure;
        return;
      }
      const key = resolveManifestKey(opts);
      try {
        const { passed, lines } = describeVerification(dir, await verifyDirectory(dir, { key, timeLimitMs: opts.timeLimit && opts.timeLimit * 1000, signoff: { ca: opts.ca } }), opts);
        for (const line of lines) process.stdout.write(`${printable(line)}\n`);
        process.exitCode = passed ? EXIT.ok : EXIT.failure;
      } catch (e) {
        if (!(e instanceof ManifestError)) throw e;
        say(`svc-report: ${e.message}`);
        // No manifest: not a report folder (usage). One that is empty, malformed or not a file: the folder fails.
        process.exitCode = e.missing ? EXIT.usage : EXIT.failure;
      }
    });
  root.addCommand(historyCommand());
  for (const c of signoffCommands()) root.addCommand(c);
  root.addCommand(brandCommand());
  root
    .command('demo')
    .description('The example portfolios with a year of recorded history, their month-end reports and the market dashboard, on the embedded sandbox (what `npm run demo` runs).')
    .option('--out <dir>', 'folder to write into: OUT/demo (the reports and the dashboard) and OUT/demo-history (the year before, and its database)', 'out')
    .addOption(logFormatOption())
    .action(async (opts: { out: string }) => {
      const { runDemo } = await import('./demo/demo-command');
      process.exitCode = await runDemo(opts.out, {
        run: (files, flags, shared) => runCommand(files, flags, undefined, shared),
        dashboard: (flags) => dashboardCommand(flags),
      });
    });
  return root;
}

/** The package's version, for --version. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The message for the user (no stack unless DEBUG is set) and the exit code; in JSON logs, one line at level error. */
function reportError(e: unknown): number {
  const log = processLog();
  const stack = process.env.DEBUG ? ((e as Error)?.stack ?? String(e)) : '';
  const asText = log.format === 'text';
  const debug = stack && asText ? ' (stack trace below)' : '';
  // The service's request id, when the failure is an answer of the service: quote it to its support.
  const fields = { request_id: e instanceof ServiceError ? e.requestId : undefined, stack: stack && !asText ? stack : undefined };
  let code: number;
  if (e instanceof InputError || e instanceof UsageError || e instanceof CheckpointMismatch) {
    log.error(`svc-report: ${(e as Error).message}${debug}`, fields);
    code = EXIT.usage;
  } else if (e instanceof InterruptedError) {
    log.warn(`svc-report: ${e.message}`);
    code = EXIT.interrupted;
  } else if (e instanceof Error && e.name === 'DatabaseError') {
    // The history database could not be opened or answer: its message names it (never a password).
    log.error(`svc-report: ${e.message}${debug}`, fields);
    code = EXIT.failure;
  } else if (e instanceof ServiceError) {
    log.error(`svc-report: the service call failed: ${e.message}${debug}`, fields);
    code = EXIT.failure;
  } else {
    log.error(`svc-report: unexpected error: ${(e as Error)?.message ?? String(e)}${debug || (stack ? '' : ' (set DEBUG=1 for details)')}`, fields);
    code = EXIT.failure;
  }
  if (stack && asText) process.stderr.write(`${printableLines(stack)}\n`);
  return code;
}

try {
  await program().parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    // --help, --version and `help` exit 0; help shown because something was missing (bare `svc-report`) is bad usage.
    process.exitCode = e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    process.exitCode = reportError(e);
  }
}
