import { hostname } from 'node:os';
import { pino, type Logger as PinoLogger } from 'pino';
import { printable } from '../printable';
import type { ClientLogger } from '../client';

/**
 * The processes' logs (Node only): JSON lines through pino for a log pipeline, or the human
 * lines the commands always printed, for a terminal. Both pass every line through the same
 * scrubber, so a secret the process knows (client secret, deployment key, a password in a
 * URL) never reaches a log even if a message or a field happened to carry it.
 */

export const LOG_FORMATS = ['json', 'text'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

/** What the processes log through; also a ClientLogger, so the API client logs into the same lines. */
export interface Log extends Required<ClientLogger> {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** The same log with these fields on every line (a component, a portfolio, …). */
  child(fields: LogFields): Log;
  /** From now on this value is replaced by [redacted] wherever it would appear. */
  addSecret(value: string | undefined): void;
  /** A text with the known secrets replaced (for what goes elsewhere than the log: a readiness body). */
  scrub(text: string): string;
  /** Whether a line at this level would be written (to skip building one that would not). */
  enabled(level: LogLevel): boolean;
  readonly format: LogFormat;
}

export interface LogOptions {
  format: LogFormat;
  /** Which part of the system speaks (addin-host, svc-report, svc-report-worker): a field of every JSON line. */
  component: string;
  /** Where the lines go: svc-report keeps stdout for the list of files written (a writer of whole lines: tests). */
  stream: 'stdout' | 'stderr' | LineWriter;
  /** Lines below this level are dropped (default info). */
  level?: LogLevel;
  secrets?: readonly (string | undefined)[];
}

/** Anything with write(): receives whole lines, each ending in a newline. */
export interface LineWriter {
  write(line: string): unknown;
}

export const REDACTED = '[redacted]';
/** Shorter values are not scrubbed: replacing "a" everywhere would garble every line and hide nothing. */
const MIN_SECRET_LENGTH = 6;

export class LogConfigError extends Error {}

/**
 * json or text. Default: json when the stream the logs go to is not a terminal (a service
 * manager, a pipe, a file), text on a terminal.
 */
export function resolveLogFormat(value: string | undefined, source: string, stream: { isTTY?: boolean }): LogFormat {
  const v = value?.trim().toLowerCase();
  if (v === undefined || v === '') return stream.isTTY ? 'text' : 'json';
  if ((LOG_FORMATS as readonly string[]).includes(v)) return v as LogFormat;
  throw new LogConfigError(`${source} must be json or text (got "${value}").`);
}

export function resolveLogLevel(value: string | undefined, source: string): LogLevel {
  const v = value?.trim().toLowerCase();
  if (v === undefined || v === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
  throw new LogConfigError(`${source} must be one of ${LOG_LEVELS.join(', ')} (got "${value}").`);
}

/** Replaces every known secret, as written and as JSON escapes it, in a finished line. */
class Scrubber {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    if (value === undefined || value.length < MIN_SECRET_LENGTH) return;
    this.values.add(value);
    this.values.add(JSON.stringify(value).slice(1, -1));
  }

  scrub(line: string): string {
    let out = line;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join(REDACTED);
    return out;
  }
}

export function createLog(o: LogOptions): Log {
  const scrubber = new Scrubber();
  for (const s of o.secrets ?? []) scrubber.add(s);
  const level = o.level ?? 'info';
  if (o.format === 'text') return textLog(o.stream, level, scrubber, {});
  const root = pino(
    {
      level,
      // pid and host tell replicas and workers apart once their lines are shipped together.
      base: { component: o.component, pid: process.pid, hostname: hostname() },
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: (line) => scrubber.scrub(line) },
    },
    // Asynchronous: a line goes out at once when the stream is idle, and lines that come while a
    // write is in progress go out together with the next (fewer system calls under load, as the
    // benchmark measured). pino flushes what is pending when the process exits.
    typeof o.stream === 'string' ? pino.destination({ fd: o.stream === 'stdout' ? 1 : 2, sync: false }) : o.stream,
  );
  return jsonLog(root, scrubber);
}

function jsonLog(logger: PinoLogger, scrubber: Scrubber): Log {
  // Fields left undefined are left out by the serialiser (as JSON.stringify does): no copy per line.
  const at = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (fields) logger[level](fields, message);
    else logger[level](message);
  };
  return {
    format: 'json',
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => jsonLog(logger.child(fields), scrubber),
    addSecret: (v) => scrubber.add(v),
    scrub: (t) => scrubber.scrub(t),
    enabled: (level) => logger.isLevelEnabled(level),
  };
}

/**
 * Today's human lines: the message alone, made printable (a name from a holdings file cannot
 * colour the terminal or forge a line), with the service's request id when there is one.
 */
function textLog(stream: LogOptions['stream'], level: LogLevel, scrubber: Scrubber, bound: LogFields): Log {
  const threshold = LOG_LEVELS.indexOf(level);
  const out: LineWriter = stream === 'stdout' ? process.stdout : stream === 'stderr' ? process.stderr : stream;
  const at = (l: LogLevel) => (message: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(l) < threshold) return;
    const requestId = fields?.request_id ?? bound.request_id;
    const line = typeof requestId === 'string' ? `${message} (request id ${requestId})` : message;
    out.write(`${scrubber.scrub(printable(line))}\n`);
  };
  return {
    format: 'text',
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => textLog(stream, level, scrubber, { ...bound, ...fields }),
    addSecret: (v) => scrubber.add(v),
    scrub: (t) => scrubber.scrub(t),
    enabled: (l) => LOG_LEVELS.indexOf(l) >= threshold,
  };
}
