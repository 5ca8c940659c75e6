/** Injected failures, as shares of API calls (0..1) and an added latency range in ms. */
export interface FaultConfig {
  /** Answered 500 internal_error. */
  error?: number;
  /** Connection destroyed with no response. */
  drop?: number;
  /** Spurious 429 rate_limited with Retry-After (spends no budget). */
  r429?: number;
  /** Added latency, uniform in [min, max] ms. */
  latency?: { min: number; max: number };
}

export type FaultOutcome = { kind: 'none' | 'error' | 'drop' | 'r429'; latencyMs: number };

const RATE_KEYS = ['error', 'drop', 'r429'] as const;

/** Reads `error=0.1,drop=0.05,latency=5-50,r429=0.02`; throws a sentence naming the bad part. */
export function parseFaults(spec: string): FaultConfig {
  const out: FaultConfig = {};
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, value, ...rest] = part.split('=');
    if (value === undefined || rest.length > 0) throw new Error(`faults: '${part}' must be key=value`);
    if (key === 'latency') {
      const m = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
      if (!m) throw new Error(`faults: latency must be milliseconds N or a range N-M, got '${value}'`);
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : Number(m[2]);
      if (max < min) throw new Error(`faults: latency range ${value} runs backwards`);
      out.latency = { min, max };
    } else if ((RATE_KEYS as readonly string[]).includes(key!)) {
      const rate = Number(value);
      if (!Number.isFinite(rate) || rate < 0 || rate > 1 || value.trim() === '') throw new Error(`faults: ${key} must be a share between 0 and 1, got '${value}'`);
      out[key as (typeof RATE_KEYS)[number]] = rate;
    } else {
      throw new Error(`faults: unknown kind '${key}' (use error, drop, latency, r429)`);
    }
  }
  validateFaults(out);
  return out;
}

export function validateFaults(f: FaultConfig): void {
  const total = (f.error ?? 0) + (f.drop ?? 0) + (f.r429 ?? 0);
  if (total > 1) throw new Error(`faults: error + drop + r429 add up to ${total}, more than 1`);
  for (const k of RATE_KEYS) {
    const v = f[k];
    if (v !== undefined && !(v >= 0 && v <= 1)) throw new Error(`faults: ${k} must be a share between 0 and 1`);
  }
  if (f.latency && !(f.latency.min >= 0 && f.latency.max >= f.latency.min)) throw new Error('faults: latency needs 0 <= min <= max');
}

/**
 * Decides each API call's fate from a seeded generator: the same seed and the same order of
 * calls give the same faults. Every call draws exactly two numbers so the sequence never shifts.
 */
export class FaultInjector {
  private state: number;
  readonly active: boolean;

  constructor(
    private readonly config: FaultConfig,
    seed: number,
  ) {
    this.state = seed >>> 0 || 0x9e3779b9;
    this.active = !!(config.error || config.drop || config.r429 || (config.latency && config.latency.max > 0));
  }

  next(): FaultOutcome {
    if (!this.active) return { kind: 'none', latencyMs: 0 };
    const pick = this.random();
    const lat = this.random();
    const { error = 0, drop = 0, r429 = 0, latency } = this.config;
    const latencyMs = latency ? Math.round(latency.min + lat * (latency.max - latency.min)) : 0;
    let kind: FaultOutcome['kind'] = 'none';
    if (pick < error) kind = 'error';
    else if (pick < error + drop) kind = 'drop';
    else if (pick < error + drop + r429) kind = 'r429';
    return { kind, latencyMs };
  }

  /** mulberry32: small, fast and good enough to spread faults evenly. */
  private random(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
