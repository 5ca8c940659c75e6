import { readFileSync } from 'node:fs';
import type { LogLine } from '../../src/sandbox';

/** The sandbox's own request log (JSONL): what the service saw. */
export function readRequestLog(file: string): LogLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

/** Calls the rate limit counts: every API call but the token endpoints. */
const counted = (l: LogLine) => !l.path.includes('/auth/');

export interface CallFigures {
  calls: number;
  responses_429: number;
  /** From the first counted call to the last, seconds (the log's times are answer times). */
  span_s: number;
  calls_per_window: number;
  /** calls_per_window ÷ the account's limit per window. */
  ratio_of_ceiling: number;
  /** The same over whole seconds between the first and the last (start-up and the last answers left out). */
  steady_ratio_of_ceiling: number;
  /** Assets in answered (200) batch valuation and score calls: each holding once each when nothing is sent twice. */
  assets_valued: number;
  assets_scored: number;
}

/** What the service saw of one account: calls per rate window over the run ÷ the account's ceiling, 429s, assets valued and scored. */
export function callFigures(log: readonly LogLine[], clientId: string, perWindow: number, windowMs: number): CallFigures {
  const lines = log.filter((l) => l.client_id === clientId && counted(l));
  const times = lines.map((l) => Date.parse(l.t)).sort((a, b) => a - b);
  const spanMs = times.length > 1 ? times.at(-1)! - times[0]! : NaN;
  // n calls over the span between the first and the last answer: n − 1 gaps.
  const rate = ((lines.length - 1) / spanMs) * windowMs;
  const perSecond = new Map<number, number>();
  for (const t of times) perSecond.set(Math.floor((t - times[0]!) / 1000), (perSecond.get(Math.floor((t - times[0]!) / 1000)) ?? 0) + 1);
  const lastSecond = Math.floor((times.at(-1)! - times[0]!) / 1000);
  const inner = Array.from({ length: Math.max(0, lastSecond - 1) }, (_, k) => perSecond.get(k + 1) ?? 0);
  const steady = inner.length ? (inner.reduce((a, b) => a + b, 0) / inner.length) * (windowMs / 1000) : NaN;
  const items = (suffix: string) => lines.filter((l) => l.status === 200 && l.path.endsWith(suffix)).reduce((n, l) => n + l.items, 0);
  return {
    calls: lines.length,
    responses_429: lines.filter((l) => l.status === 429).length,
    span_s: round(spanMs / 1000, 2),
    calls_per_window: round(rate, 1),
    ratio_of_ceiling: round(rate / perWindow, 3),
    steady_ratio_of_ceiling: round(steady / perWindow, 3),
    assets_valued: items('/valuations/batch'),
    assets_scored: items('/scores/batch'),
  };
}

/** The last counted call's answer time, ms since the epoch. */
export function lastCallAt(log: readonly LogLine[], clientId: string): number {
  return Math.max(...log.filter((l) => l.client_id === clientId && counted(l)).map((l) => Date.parse(l.t)));
}

export const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
