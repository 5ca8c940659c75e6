import { Option, type Command } from 'commander';
import { createLog, LOG_FORMATS, LogConfigError, resolveLogFormat, resolveLogLevel, type Log } from '../../src/ops';
import { UsageError } from '../run/exit-codes';

/**
 * svc-report's log. Stdout lists only the files written (scripts read it); every other line —
 * progress, notes, warnings, errors — goes to stderr, as JSON lines (--log-format json, the
 * default when stderr is not a terminal: a service manager, cron, a pipe) or as the human lines
 * a terminal has always shown (--log-format text).
 */
let current: Log = createLog({ format: 'text', component: 'svc-report', stream: 'stderr' });

/** The process's log (text on stderr until the command's options are read). */
export function processLog(): Log {
  return current;
}

/** One line of the command's own (info): what `say` always printed. */
export function say(line: string): void {
  current.info(line);
}

export const logFormatOption = () =>
  new Option('--log-format <format>', 'stderr as JSON lines for a log pipeline, or text for a terminal (default: json when stderr is not a terminal; SVC_LOG_FORMAT)').choices(LOG_FORMATS);

/** Adds --log-format to a command. */
export function withLogFormat(cmd: Command): Command {
  return cmd.addOption(logFormatOption());
}

/** Reads --log-format (else SVC_LOG_FORMAT) and SVC_LOG_LEVEL, and makes the process log from them. */
export function configureLog(flag: string | undefined, component: string, env: NodeJS.ProcessEnv = process.env): Log {
  try {
    const format = resolveLogFormat(flag ?? env.SVC_LOG_FORMAT, flag !== undefined ? '--log-format' : 'SVC_LOG_FORMAT', process.stderr);
    const level = resolveLogLevel(env.SVC_LOG_LEVEL, 'SVC_LOG_LEVEL');
    current = createLog({ format, level, component, stream: 'stderr', secrets: [env.SVC_CLIENT_SECRET] });
    return current;
  } catch (e) {
    if (e instanceof LogConfigError) throw new UsageError(e.message);
    throw e;
  }
}
