import { Counter, type Registry } from 'prom-client';

/**
 * A counter for a hot path (the add-in host counts every request several ways): an increment is
 * one Map update, and the series are written into prom-client's Counter only when Prometheus
 * scrapes. prom-client's own inc() validates and hashes its labels on every call; at a
 * thousand requests a second that showed in the host's CPU per request (bench/host-observability.ts).
 */
export class Tally<L extends string> {
  private readonly counts = new Map<string, { values: readonly string[]; n: number }>();

  constructor(o: { name: string; help: string; labelNames: readonly L[]; registry: Registry }) {
    if (o.labelNames.length > 2) throw new Error(`${o.name}: a tally has at most two labels`);
    const counts = this.counts;
    const names = o.labelNames;
    new Counter({
      name: o.name,
      help: o.help,
      labelNames: names,
      registers: [o.registry],
      collect() {
        this.reset();
        for (const { values, n } of counts.values()) {
          const labels: Partial<Record<L, string>> = {};
          names.forEach((name, i) => (labels[name] = values[i]!));
          this.inc(labels, n);
        }
      },
    });
  }

  /** Adds `n` to the series whose label values are `a` and `b`, in labelNames' order (a tally has at most two labels). */
  add(n: number, a = '', b?: string): void {
    if (n <= 0) return;
    const key = b === undefined ? a : `${a}\u0000${b}`;
    const entry = this.counts.get(key);
    if (entry) entry.n += n;
    else this.counts.set(key, { values: b === undefined ? [a] : [a, b], n });
  }
}
