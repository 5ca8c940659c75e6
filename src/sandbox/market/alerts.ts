import { SEGMENT_IDS, segmentById, formatSignedPercent, type Alert, type SegmentId } from '../../wire';
import { DAY_MS, dayNumber, dayStartMs } from './calendar';
import type { MarketContext } from './market';
import type { SegmentDay } from './market-day';
import { hash32 } from './random';
import { SEGMENT_PROFILES, annualVolatility } from './segment-profiles';
import type { MarketState } from './state';

/**
 * Alerts are events in the series: the 30-day change crossing a band (breakout/breakdown), a
 * jump in volume, or sentiment changing label. Each is raised during the day it happens and
 * lives seven days while what it says still holds, so the list for a moment is a pure function
 * of the series and agrees with that moment's signals.
 */
const ALERT_LIFETIME_MS = 7 * DAY_MS;

/** The instant alerts are listed for: now, or the end of the as-of day when valuing the past. */
export function asOfInstant(ctx: MarketContext): number {
  return Math.min(ctx.now.getTime(), dayStartMs(dayNumber(ctx.day)) + DAY_MS - 1);
}

function alertId(seed: number, segment: SegmentId, type: string, day: number): string {
  const a = hash32(`${segment}|${type}|${day}`, seed).toString(36).padStart(7, '0');
  const b = hash32(`${day}|${type}|${segment}`, seed ^ 0x5bd1e995).toString(36).padStart(7, '0');
  return `alert_${a}${b}`;
}

/** Days before an event that must have been quiet for it to count as new (no flapping around a line). */
const QUIET_DAYS = [1, 4, 7, 14];

type AlertText = Omit<Alert, 'id' | 'created_at' | 'expires_at'>;

/**
 * An event a segment's series raised, and how it reads on a later day: it is listed only while
 * what it says still holds, in that day's figures, so the alerts never contradict the signals
 * of the same moment (a "sentiment now bearish" alert beside a neutral sentiment).
 */
interface MarketEvent {
  type: Alert['type'];
  /** The alert as it reads on `d`, or undefined once its condition no longer holds there. */
  on(d: SegmentDay): AlertText | undefined;
}

function eventsOn(state: MarketState, segment: SegmentId, day: number): MarketEvent[] {
  const today = state.segmentDay(segment, day);
  const earlier = QUIET_DAYS.map((n) => state.segmentDay(segment, day - n));
  const band = annualVolatility(SEGMENT_PROFILES[segment]) * Math.sqrt(30 / 365);
  const name = segmentById(segment)!.name;
  const change = (d: SegmentDay) => formatSignedPercent(d.change30 * 100);
  const out: MarketEvent[] = [];
  if (today.change30 > band && earlier.every((d) => d.change30 <= band)) {
    out.push({
      type: 'breakout',
      on: (d) => (d.change30 > band ? { type: 'breakout', severity: 'opportunity', segment, title: `${name}: upside breakout`, message: `${name} prices are up ${change(d)} over 30 days, above their usual range.` } : undefined),
    });
  }
  if (today.change30 < -band && earlier.every((d) => d.change30 >= -band)) {
    out.push({
      type: 'breakdown',
      on: (d) => (d.change30 < -band ? { type: 'breakdown', severity: 'warning', segment, title: `${name}: downside break`, message: `${name} prices are ${change(d)} over 30 days, below their usual range.` } : undefined),
    });
  }
  if (today.volumeRatio > 1.35 && earlier.every((d) => d.volumeRatio <= 1.35)) {
    out.push({
      type: 'volume_spike',
      on: (d) =>
        d.volumeRatio > 1.35
          ? { type: 'volume_spike', severity: 'info', segment, title: `${name}: volume spike`, message: `${name} trading volume is ${formatSignedPercent((d.volumeRatio - 1) * 100)} against its average.` }
          : undefined,
    });
  }
  // Only a move into bullish or bearish that was not the mood in the last two weeks.
  const mood = today.sentiment;
  if (mood !== 'neutral' && earlier.every((d) => d.sentiment !== mood)) {
    const from = earlier[0]!.sentiment;
    out.push({
      type: 'sentiment_shift',
      on: (d) =>
        d.sentiment === mood
          ? { type: 'sentiment_shift', severity: mood === 'bullish' ? 'opportunity' : 'warning', segment, title: `${name}: sentiment now ${mood}`, message: `Sentiment in ${name} moved from ${from} to ${mood}.` }
          : undefined,
    });
  }
  return out;
}

export function activeAlerts(state: MarketState, ctx: MarketContext): Alert[] {
  const at = asOfInstant(ctx);
  const lastDay = Math.floor(at / DAY_MS);
  const out: Alert[] = [];
  for (let day = lastDay - 7; day <= lastDay; day++) {
    for (const segment of SEGMENT_IDS) {
      const now = state.segmentDay(segment, lastDay);
      for (const e of eventsOn(state, segment, day)) {
        const id = alertId(state.seed, segment, e.type, day);
        // Raised at a fixed time of its day between 06:00 and 16:00 UTC.
        const created = dayStartMs(day) + (6 * 60 + (hash32(id) % 600)) * 60_000;
        const expires = created + ALERT_LIFETIME_MS;
        const text = created <= at && at < expires ? e.on(now) : undefined;
        if (text) out.push({ id, ...text, created_at: new Date(created).toISOString(), expires_at: new Date(expires).toISOString() });
      }
    }
  }
  return out.sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
}
