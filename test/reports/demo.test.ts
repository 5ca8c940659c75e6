/**
 * `svc-report demo` (`npm run demo`, issue 34): the newcomer's first minute. One process values
 * the twelve month-ends before today and records them, values this month-end beside them and
 * reads what was recorded before building its reports, and writes the dashboard into the same
 * folder. Checked as a newcomer would find it, on the examples themselves.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { monthEnds, openDatabase } from '../../src/db';
import { monthEndBefore } from '../../src/performance';
import { readJson, runCli, tempDir, type CliResult } from './helpers';

const PORTFOLIOS = ['Hartley Family', 'Hartley Foundation', 'Ng Collectibles', 'Okafor Household', 'Lindqvist Trust', 'Tanaka Collection'];
const slug = (name: string) => name.toLowerCase().replace(/\s+/g, '-');

describe('svc-report demo', () => {
  let out: string;
  let result: CliResult;
  const today = new Date().toISOString().slice(0, 10);
  const months = Array.from({ length: 12 }, (_, i) => monthEndBefore(today, 12 - i));

  beforeAll(async () => {
    out = tempDir('svc-demo-');
    result = await runCli(['demo', '--out', out], { SVC_DB_URL: '', SVC_BASE_URL: '' });
  }, 600_000);

  it('exits 0 having said what it recorded and written', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`History: 72 month-ends of 6 portfolios recorded (${months[0]} to ${months[11]})`);
    expect(result.stderr).toMatch(/Done: every holding valued; \d+ files written\./);
  });

  it('records the twelve month-ends before today, each the value its month\'s report states', async () => {
    const history = join(out, 'demo-history');
    expect(readdirSync(history).filter((f) => /^\d{4}-\d{2}-\d{2}$/.test(f)).sort()).toEqual(months);
    const db = await openDatabase(join(history, 'db'));
    try {
      for (const name of PORTFOLIOS) {
        const recorded = await monthEnds(db, name);
        // The twelve months, then this month-end recorded by the month-end run itself.
        expect(recorded.map((m) => m.asOf), name).toEqual([...months, today]);
        for (const m of recorded.slice(0, 12)) {
          expect(m.value, `${name} ${m.asOf}`).toBeCloseTo(readJson(join(history, m.asOf, `${slug(name)}-${m.asOf}.json`)).summary.current_value, 2);
        }
      }
    } finally {
      await db.close();
    }
  });

  it("builds the month-end's reports on the recorded history (read after the history was recorded, not before)", () => {
    for (const name of PORTFOLIOS) {
      const report = readJson(join(out, 'demo', `${slug(name)}-${today}.json`));
      expect(report.summary.returns_source, name).toBe("the firm's history database");
      expect(report.summary.month_on_month?.previous_as_of, name).toBe(months[11]);
    }
  });

  it("realises Tanaka's card sale from the lot it names: the proceeds less the 19,950 card's cost, a loss (issue 34)", () => {
    const report = readJson(join(out, 'demo', `tanaka-collection-${today}.json`));
    // examples/demo-transactions.csv sells lot PSA cert 64831905 for 17,800; first in, first out would have taken the 16,700 card (+1,100).
    expect(report.realised_gain.lines.map((l: Record<string, unknown>) => [l.lot, l.opened, l.cost, l.proceeds, l.gain])).toEqual([['PSA cert 64831905', '2023-10-20', 19_950, 17_800, 17_800 - 19_950]]);
    expect(report.realised_gain.total).toBe(-2_150);
  });

  it('lists the reports and the dashboard in one manifest that verifies', async () => {
    const manifest = readJson(join(out, 'demo', 'manifest.json'));
    const names: string[] = manifest.files.map((f: { name: string }) => f.name);
    expect(names.some((n) => n.startsWith('market-dashboard-'))).toBe(true);
    expect(names).toContain(`tanaka-collection-${today}.pdf`);
    const verified = await runCli(['verify', join(out, 'demo')]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });
});
