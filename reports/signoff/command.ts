/**
 * `svc-report review`, `approve` and `reject` (issue 25): four eyes before a client sees a report.
 * Kept out of cli.ts so the job's main file gains one line per command.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { printable } from '../../src/printable';
import { logFormatOption, say } from '../ops/process-log';
import { EXIT, UsageError } from '../run/exit-codes';
import type { DecisionOptions } from './decide';
import { manifestKeyOption } from '../manifest-key';
import { dbWaitOption } from '../history/database-target';

const DB_HELP = 'history database to record the decision in as well: a folder or postgres://… (default: as `run`: SVC_DB_URL, db in the config, else the embedded default; off: the manifest only)';
const out = (line: string) => process.stdout.write(`${printable(line)}\n`);

function percent(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a percentage above 0, e.g. 25');
  return n;
}

function decisionCommand(name: 'approve' | 'reject'): Command {
  const approve = name === 'approve';
  const cmd = new Command(name)
    .description(
      approve
        ? "Approve a run's reports for the client: records who, when and each file's SHA-256 in the folder's manifest (and the history database); --sign signs each client PDF (PAdES), --deliver copies the approved client PDFs (and web pages, when the run wrote them), one folder per client."
        : "Reject a run's reports (--reason says why): recorded like an approval; a rejected report is never delivered.",
    )
    .argument('<dir>', 'the folder a month-end run wrote')
    .option('--portfolio <names...>', "the reports to decide on, by portfolio name (or report file name without extension); default: all the folder's reports")
    .requiredOption('--by <reviewer>', 'who decides, as "Name <email>"')
    .option('--reason <text>', approve ? 'a note kept with the approval' : 'why the reports are rejected (required)')
    .option('--db <folder|url>', DB_HELP)
    .addOption(dbWaitOption())
    .option('--config <file>', 'config file (default: ./svc-report.config.json when present)')
    .addOption(manifestKeyOption())
    .addOption(logFormatOption());
  if (approve)
    cmd
      .option('--sign <file.p12>', "sign each approved client PDF with this PKCS#12 file (password: SVC_SIGN_PASSWORD, or asked on a terminal)")
      .option('--location <place>', "the signature's location, e.g. \"London\"")
      .option('--tsa <url>', 'RFC 3161 timestamp authority to timestamp each signature (with --sign)')
      .option('--deliver <dir>', 'copy the approved client PDFs there, DIR/<client>/<report>.pdf, with <report>.html beside each when the run wrote the web page, and nothing else (a link anywhere on the way is refused)')
      .option('--allow-sandbox', 'a rehearsal: approve, sign and deliver reports of sandbox data (refused otherwise); they keep their SANDBOX DATA marks');
  return cmd
    .addHelpText('after', approve ? '\nExample:\n  SVC_SIGN_PASSWORD=… svc-report approve out/2026-10 --by "Ann Reviewer <ann@firm.example>" --sign firm.p12 --location London --deliver outbox/2026-10' : '\nExample:\n  svc-report reject out/2026-10 --portfolio "Okafor Household" --by "Ann Reviewer <ann@firm.example>" --reason "Basquiat drawing valued twice"')
    .exitOverride()
    .action(async (dir: string, opts: DecisionOptions) => {
      const { decide } = await import('./decide');
      if (!approve && (opts.sign || opts.deliver)) throw new UsageError('reject neither signs nor delivers');
      if (opts.tsa && !opts.sign) throw new UsageError('--tsa timestamps a signature: give --sign too');
      const outcome = await decide(dir, approve ? 'approved' : 'rejected', opts, (l) => say(printable(l)));
      for (const r of outcome.records) out(`${r.decision === 'approved' ? 'Approved' : 'Rejected'} ${r.report} (${r.portfolio}) by ${r.by} at ${r.at}${r.signature ? '; PDF signed' : ''}`);
      for (const f of outcome.delivered?.copied ?? []) out(f);
      for (const s of outcome.delivered?.skipped ?? []) say(printable(`Not delivered: ${s.report} (${s.why}).`));
      for (const f of [...(outcome.delivered?.removed ?? []), ...(outcome.takenBack ?? [])]) say(printable(`Taken back from the delivery: ${f}.`));
      say(`Recorded in ${dir}/manifest.json${outcome.database ? ` and the history database (${outcome.database})` : ''}.`);
      process.exitCode = EXIT.ok;
    });
}

/** The review, approve and reject commands, for cli.ts. */
export function signoffCommands(): Command[] {
  const review = new Command('review')
    .description("What a reviewer checks first in each report of a run: total value and change on the month, holdings not valued or not market validated, large moves since last month, analyst notes; and whether each is approved.")
    .argument('<dir>', 'the folder a month-end run wrote')
    .addOption(new Option('--flag-move <percent>', 'flag holdings whose value moved more than this since last month (default 25)').argParser(percent))
    .addOption(logFormatOption())
    .addHelpText('after', '\nExample:\n  svc-report review out/2026-10 --flag-move 20')
    .exitOverride()
    .action(async (dir: string, opts: { flagMove?: number }) => {
      const [{ readRunFolder }, { reviewLines, DEFAULT_FLAG_MOVE }] = await Promise.all([import('./folder-reports'), import('./review')]);
      for (const line of await reviewLines(await readRunFolder(dir), opts.flagMove ?? DEFAULT_FLAG_MOVE)) out(line);
      process.exitCode = EXIT.ok;
    });
  return [review, decisionCommand('approve'), decisionCommand('reject')];
}
