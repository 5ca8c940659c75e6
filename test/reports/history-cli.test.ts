import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresProcess } from '../../fixtures/postgres-server';
import { defaultDatabasePath } from '../../src/db';
import { resolveDatabaseTarget } from '../../reports/history/database-target';
import { writeManifest } from '../../reports/run-manifest';
import { runCli, tempDir } from './helpers';

/**
 * `svc-report history import|show` (issue 23) over reports the real job wrote: two month-ends
 * of two portfolios valued by the embedded sandbox as of past dates, imported into an embedded
 * database and into a real PostgreSQL server, read back through `history show`.
 */
const HOLDINGS = join(import.meta.dirname, 'fixtures', 'history-holdings.csv');
const MONTHS = ['2025-01-31', '2025-02-28'] as const;
/** Each test runs the command several times, each start-up a few seconds on a loaded 2-core machine. */
const SLOW = 300_000;

interface Report {
  schema_version: string;
  portfolio: { name: string };
  as_of: string;
  currency: string;
  summary: { current_value: number };
  holdings: { purchase_date: string; purchase_price: number }[];
}

let dir: string;
const folders: Record<string, string> = {};
/** The job's reports, by month then portfolio. */
const reports: Record<string, Record<string, Report>> = {};
let server: PostgresProcess | undefined;

beforeAll(async () => {
  dir = tempDir('svc-report-history-');
  for (const asOf of MONTHS) {
    const out = join(dir, `out-${asOf}`);
    const r = await runCli(['run', HOLDINGS, '--out', out, '--as-of', asOf, '--formats', 'json']);
    expect(r.stderr).not.toMatch(/unexpected error/);
    folders[asOf] = out;
    reports[asOf] = {};
    for (const name of readdirSync(out).filter((n) => n.endsWith('.json') && n !== 'manifest.json' && !n.startsWith('consolidated'))) {
      const doc = JSON.parse(readFileSync(join(out, name), 'utf8')) as Report;
      reports[asOf]![doc.portfolio.name] = doc;
    }
  }
}, SLOW);
afterAll(async () => {
  await server?.stop();
});

const showJson = async (db: string, portfolio: string) => {
  const r = await runCli(['history', 'show', '--portfolio', portfolio, '--json', '--db', db]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { portfolio: string; month_ends: { as_of: string; value: number; currency: string; net_flows: number; holdings: number; run_id: number }[] };
};

describe('history import and show', () => {
  let firstImport: string;

  it('imports two months of reports; show gives each month-end its report value, net flows and holdings; a second import replaces', async () => {
    expect(Object.keys(reports[MONTHS[0]]!).sort()).toEqual(['Lindqvist Trust', 'Okafor Household']);
    const db = join(dir, 'embedded');
    const imported = await runCli(['history', 'import', folders[MONTHS[0]]!, folders[MONTHS[1]]!, '--db', db]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`History database: ${db}`);
    // One line per month-end, oldest first; the consolidated report and the manifest skipped, said so.
    expect(imported.stdout.trim().split('\n')).toHaveLength(4);
    expect(imported.stdout).toMatch(/^Okafor Household 2025-02-28: \$[\d,.]+, net flows \$91,500\.00, 3 holdings$/m);
    expect(imported.stderr).toMatch(/Skipped .*consolidated-2025-01-31\.json: the consolidated report/);
    expect(imported.stderr).toMatch(/Skipped .*manifest\.json: the folder's manifest/);
    expect(imported.stderr).toMatch(/Imported 4 month-ends of 2 portfolios \(0 replaced one already recorded\) as run 1; 4 files skipped\./);

    const okafor = await showJson(db, 'Okafor Household');
    expect(okafor.month_ends.map((m) => [m.as_of, m.value, m.currency, m.holdings, m.run_id])).toEqual(
      MONTHS.map((asOf) => [asOf, reports[asOf]!['Okafor Household']!.summary.current_value, 'USD', reports[asOf]!['Okafor Household']!.holdings.length, 1]),
    );
    // Net flows: nothing for the first month-end; then the purchases after it (the Haring, bought 2025-02-11).
    const feb = reports[MONTHS[1]]!['Okafor Household']!;
    const bought = feb.holdings.filter((h) => h.purchase_date > MONTHS[0]).reduce((s, h) => s + h.purchase_price, 0);
    expect(bought).toBe(91_500);
    expect(okafor.month_ends.map((m) => m.net_flows)).toEqual([0, bought]);
    firstImport = JSON.stringify([okafor, await showJson(db, 'Lindqvist Trust')]);

    // The table: every month-end with its value and currency, through SVC_DB_URL this time.
    const table = await runCli(['history', 'show', '--portfolio', 'Lindqvist Trust'], { SVC_DB_URL: db });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).toContain(`History database: ${db}`);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^as_of\s+value\s+net flows\s+holdings\s+run$/);
    for (const [i, asOf] of MONTHS.entries()) {
      const value = reports[asOf]!['Lindqvist Trust']!.summary.current_value;
      expect(lines[2 + i]).toMatch(new RegExp(`^${asOf}\\s+\\$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).replace(/\./g, '\\.')}\\s+\\$0\\.00\\s+2\\s+1$`));
    }

    // Again: the same month-ends, replaced under a second run, never duplicated.
    const again = await runCli(['history', 'import', folders[MONTHS[0]]!, folders[MONTHS[1]]!, '--db', db]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.match(/\(replaced the month recorded before\)/g)).toHaveLength(4);
    expect(again.stderr).toMatch(/Imported 4 month-ends of 2 portfolios \(4 replaced one already recorded\) as run 2/);
    const replaced = await showJson(db, 'Okafor Household');
    expect(replaced.month_ends.map((m) => ({ ...m, run_id: 1 }))).toEqual(okafor.month_ends);
    expect(replaced.month_ends.map((m) => m.run_id)).toEqual([2, 2]);

    const list = await runCli(['history', 'show', '--db', db]);
    expect(list.stdout).toMatch(/^Lindqvist Trust\s+2025-01-31\s+2025-02-28\s+2$/m);
    expect(list.stdout).toMatch(/^Okafor Household\s+2025-01-31\s+2025-02-28\s+2$/m);

    const unknown = await runCli(['history', 'show', '--portfolio', 'Nobody', '--db', db]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no history recorded for the portfolio "Nobody"; portfolios recorded: Lindqvist Trust, Okafor Household');
    expect(unknown.stdout).toBe('');
  }, SLOW);

  it('a real PostgreSQL server: the same import gives the same --json output', async () => {
    server = await startPostgres();
    const url = await server.newDatabase();
    const imported = await runCli(['history', 'import', folders[MONTHS[0]]!, folders[MONTHS[1]]!, '--db', url]);
    expect(imported.code, imported.stderr).toBe(0);
    // The one redaction (src/redact-url.ts): user info of any kind is ***.
    expect(imported.stderr).toContain(`History database: postgres://***@127.0.0.1:${server.port}/`);
    expect(JSON.stringify([await showJson(url, 'Okafor Household'), await showJson(url, 'Lindqvist Trust')])).toBe(firstImport);
  }, SLOW);

  it('schema 1.0 and 1.1 reports are imported; a malformed one is named and the rest still imported; other JSON skipped', async () => {
    const old = join(dir, 'old-reports');
    mkdirSync(old);
    const jan = reports[MONTHS[0]]!;
    // Schema 1.0: none of 1.1's and 1.2's fields (audience, purchase currencies, returns, validation share).
    writeFileSync(join(old, 'okafor-household-2025-01-31.json'), JSON.stringify(downgraded(jan['Okafor Household']!, '1.0.0')));
    writeFileSync(join(old, 'lindqvist-trust-2025-01-31.json'), JSON.stringify(downgraded(jan['Lindqvist Trust']!, '1.1.0')));
    // A consolidated report of schema 1.0 has no audience: its name says what it is.
    const consolidated = JSON.parse(readFileSync(join(folders[MONTHS[0]]!, 'consolidated-2025-01-31.json'), 'utf8')) as Report;
    writeFileSync(join(old, 'consolidated-2025-01-31.json'), JSON.stringify(downgraded(consolidated, '1.0.0')));
    const broken = structuredClone(reports[MONTHS[1]]!['Okafor Household']!) as Report & { holdings: Record<string, unknown>[] };
    broken.holdings[1]!.current_value = 'about 10k';
    writeFileSync(join(old, 'okafor-household-2025-02-28.json'), JSON.stringify(broken));
    writeFileSync(join(old, 'notes.json'), JSON.stringify({ hello: 'world' }));
    // history import verifies a folder against its manifest (issue 35): these hand-made files get one of their own.
    await writeManifest(old, { command: 'run', generatedAt: '2025-01-31T00:00:00.000Z', env: {}, baseUrl: undefined, sandbox: true, asOf: MONTHS[0], inputs: [], files: readdirSync(old).map((name) => join(old, name)) });

    const db = join(dir, 'old-db');
    const r = await runCli(['history', 'import', old, '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Not imported: .*okafor-household-2025-02-28\.json is not a readable portfolio report: holdings\.1\.current_value: Invalid input: expected number, received string/);
    expect(r.stderr).toMatch(/Skipped .*notes\.json: not a portfolio report/);
    expect(r.stderr).toMatch(/Skipped .*consolidated-2025-01-31\.json: the consolidated report/);
    expect(r.stderr).toMatch(/Imported 2 month-ends of 2 portfolios .*; 3 files skipped; 1 report not readable \(named above\), not imported\./);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    for (const name of ['Okafor Household', 'Lindqvist Trust']) {
      const shown = await showJson(db, name);
      expect(shown.month_ends.map((m) => [m.as_of, m.value, m.holdings])).toEqual([[MONTHS[0], jan[name]!.summary.current_value, jan[name]!.holdings.length]]);
    }
  }, SLOW);

  it('a folder without reports, or missing, is an error naming it; nothing is recorded', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.json'), '{}');
    const r = await runCli(['history', 'import', folders[MONTHS[0]]!, empty, '--db', join(dir, 'never')]);
    expect(r.code).toBe(2);
    // A folder of JSON without a manifest cannot be verified (issue 35): refused before its files are read.
    expect(r.stderr).toContain(`${empty} refused, nothing imported: it has no manifest.json, so its reports cannot be verified`);
    expect(r.stderr).not.toContain('History database:');
    const missing = await runCli(['history', 'import', join(dir, 'nope'), '--db', join(dir, 'never')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read the report folder ${join(dir, 'nope')}`);
  }, SLOW);
});

describe('resolveDatabaseTarget', () => {
  it('--db, else SVC_DB_URL, else the config file, else the default folder; another kind of URL refused', () => {
    const env = { SVC_DB_URL: 'postgres://h/env', XDG_DATA_HOME: '/data' };
    expect(resolveDatabaseTarget({ db: '/x/flag' }, env, { db: '/x/config' })).toEqual({ target: '/x/flag', source: '--db' });
    expect(resolveDatabaseTarget({}, env, { db: '/x/config' })).toEqual({ target: 'postgres://h/env', source: 'SVC_DB_URL' });
    expect(resolveDatabaseTarget({}, { SVC_DB_URL: ' ' }, { db: '/x/config' })).toEqual({ target: '/x/config', source: 'config' });
    expect(resolveDatabaseTarget({}, { XDG_DATA_HOME: '/data' })).toEqual({ target: defaultDatabasePath({ XDG_DATA_HOME: '/data' }), source: 'default' });
    expect(() => resolveDatabaseTarget({}, { SVC_DB_URL: 'mysql://h/db' })).toThrow('SVC_DB_URL takes a folder or a postgres:// URL; mysql:// is not a database this tool opens');
    expect(() => resolveDatabaseTarget({}, {}, { db: 'redis://h' })).toThrow(/^db in the config file takes a folder/);
  });
});

/** A report as an older version of the job wrote it: the later schemas' fields taken out. */
function downgraded(report: Report, version: '1.0.0' | '1.1.0'): unknown {
  const doc = structuredClone(report) as unknown as Record<string, unknown> & { summary: Record<string, unknown>; holdings: Record<string, unknown>[] };
  doc.schema_version = version;
  delete doc.illustrative_rates;
  for (const k of ['market_validated_count', 'market_validated_percent', 'validation_warning']) delete doc.summary[k];
  if (version === '1.0.0') {
    for (const k of ['audience', 'portfolios', 'analyst_notes']) delete doc[k];
    for (const k of ['money_weighted_return_percent', 'time_weighted_return_percent', 'twr_from', 'fx_effect', 'asset_effect', 'coverage']) delete doc.summary[k];
    for (const h of doc.holdings) {
      for (const k of ['portfolio', 'quantity_unit', 'purchase_currency', 'purchase_price_original', 'fx_rate_purchase', 'fx_rate_as_of', 'money_weighted_return_percent', 'net_realisable_value']) delete h[k];
    }
  }
  return doc;
}
