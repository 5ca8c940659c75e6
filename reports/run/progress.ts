import cliProgress from 'cli-progress';
import type { Log } from '../../src/ops';

export interface ProgressSnapshot {
  /** e.g. "Okafor Household: valuing". */
  label: string;
  done: number;
  total: number;
  /** Requests left in the current rate window, when known. */
  requestsLeft?: number;
}

/** Progress on stderr: a bar on a terminal, plain lines otherwise (logs, CI, cron). */
export interface Progress {
  update(s: ProgressSnapshot): void;
  /** A message line that does not break the bar. */
  log(line: string): void;
  stop(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? new BarProgress(stream) : new LineProgress(stream);
}

/** Progress as log lines (JSON logs): the figures as fields a log pipeline can graph. */
export function logProgress(log: Log): Progress {
  return {
    update: (s) => log.info(`${s.label}: ${s.done}/${s.total} holdings`, { progress: s.label, done: s.done, total: s.total, requests_left: s.requestsLeft }),
    log: (line) => log.info(line),
    stop: () => {},
  };
}

class BarProgress implements Progress {
  private readonly multi: cliProgress.MultiBar;
  private bar: cliProgress.SingleBar | undefined;
  private label = '';

  constructor(stream: NodeJS.WriteStream) {
    this.multi = new cliProgress.MultiBar(
      {
        stream,
        format: '{label} |{bar}| {value}/{total} holdings | {requests} requests left this minute | {eta_formatted} to finish',
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  update(s: ProgressSnapshot): void {
    const payload = { label: s.label, requests: s.requestsLeft ?? '?' };
    if (!this.bar || s.label !== this.label) {
      this.bar?.stop();
      this.bar = this.multi.create(s.total, s.done, payload);
      this.label = s.label;
    } else {
      this.bar.setTotal(s.total);
      this.bar.update(s.done, payload);
    }
  }

  log(line: string): void {
    this.multi.log(`${line}\n`);
  }

  stop(): void {
    this.multi.stop();
  }
}

class LineProgress implements Progress {
  private started = new Map<string, { at: number; from: number }>();

  constructor(private readonly stream: NodeJS.WriteStream) {}

  update(s: ProgressSnapshot): void {
    const start = this.started.get(s.label) ?? { at: Date.now(), from: s.done };
    this.started.set(s.label, start);
    const rate = (s.done - start.from) / Math.max(1, Date.now() - start.at);
    const eta = rate > 0 && s.done < s.total ? `; about ${Math.ceil((s.total - s.done) / rate / 1000)} s to finish` : '';
    const left = s.requestsLeft !== undefined ? `; ${s.requestsLeft} requests left this minute` : '';
    this.stream.write(`${s.label}: ${s.done}/${s.total} holdings${left}${eta}\n`);
  }

  log(line: string): void {
    this.stream.write(`${line}\n`);
  }

  stop(): void {}
}

/**
 * The run's progress over every portfolio in flight: one bar, counting holdings finished
 * (valued and scored, or refused) across the run, whichever portfolio's chunk lands.
 */
export class RunProgress {
  private done = 0;

  constructor(
    private readonly progress: Progress,
    private readonly label: string,
    private readonly total: number,
    private readonly requestsLeft: () => number | undefined,
  ) {}

  finished(holdings: number): void {
    if (holdings === 0) return;
    this.done += holdings;
    this.progress.update({ label: this.label, done: this.done, total: this.total, requestsLeft: this.requestsLeft() });
  }
}
