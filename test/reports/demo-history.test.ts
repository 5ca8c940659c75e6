/**
 * Issue 34, "The demo in seconds again": the demo's history (reports/demo/history.ts) values the
 * twelve month-ends before today side by side and records them under one opening of the history
 * database. Checked on a small portfolio: twelve month-ends recorded, each the value its month's
 * JSON report states.
 */
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { monthEnds, openDatabase } from '../../src/db';
import { monthEndBefore } from '../../src/performance';
import { HEADER, readJson, ROOT, tempDir, watchRows } from './helpers';

function demoHistory(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'reports/demo/history.ts'), ...args], { cwd: ROOT, env: { ...process.env, SVC_DB_URL: '' } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('the demo history', () => {
  it('records the twelve month-ends before today under one opening, each the value its report states', async () => {
    const dir = tempDir('svc-demo-history-');
    const holdings = join(dir, 'Small Portfolio.csv');
    // Bought long before the first of the twelve months: every month values every holding.
    writeFileSync(holdings, [HEADER, ...watchRows(3).map((r) => r.replace(/,20\d\d-\d\d-\d\d,/, ',2020-01-15,'))].join('\n'));
    const db = join(dir, 'db');
    const out = join(dir, 'history');
    const r = await demoHistory(['--db', db, '--out', out, holdings]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/History: 12 month-ends of 1 portfolio/);

    const today = new Date().toISOString().slice(0, 10);
    const months = Array.from({ length: 12 }, (_, i) => monthEndBefore(today, 12 - i));
    expect(readdirSync(out).filter((f) => /^\d{4}-\d{2}-\d{2}$/.test(f)).sort()).toEqual(months);
    const opened = await openDatabase(db);
    try {
      const recorded = await monthEnds(opened, 'Small Portfolio');
      expect(recorded.map((m) => m.asOf)).toEqual(months);
      for (const m of recorded) {
        const report = readJson(join(out, m.asOf, `small-portfolio-${m.asOf}.json`));
        expect(m.value).toBeCloseTo(report.summary.current_value, 2);
      }
    } finally {
      await opened.close();
    }
  }, 600_000);
});
