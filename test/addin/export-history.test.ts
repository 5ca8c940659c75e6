import { describe, expect, it } from 'vitest';
import { exportPast } from '../../addin/server/export-history';
import type { HistorySource, RecordedPast } from '../../addin/server/history-source';
import { runInRequestContext, type RequestContext } from '../../addin/server/auth/request-context';
import type { Holding, PortfolioInput } from '../../src/holdings/types';
import type { Log } from '../../src/ops';

/**
 * Issue 34: what "Export report" rests its returns on, branch by branch, with a stand-in history
 * source (through the host over HTTP against a database recorded by real runs:
 * test/addin/performance.test.ts). Each fallback says why; a refused or impossible name never
 * reaches the database.
 */
const AS_OF = '2026-11-27';
const holding = (row: number, assetId: string, purchaseDate: string, purchasePrice: number): Holding => ({
  portfolio: 'Okafor Household',
  source: { file: 'workbook', row },
  segment: 'watches',
  assetId,
  brand: 'Rolex',
  model: 'Datejust 41',
  quantity: 1,
  purchasePrice,
  purchaseDate,
  currency: 'USD',
});
const input = (name = 'Okafor Household'): PortfolioInput => ({ name, files: ['workbook'], holdings: [holding(2, 'W1', '2025-08-10', 11800), holding(3, 'W2', '2026-11-05', 7000)], problems: [] });
const recorded: RecordedPast = {
  monthEnds: [
    { asOf: '2026-09-30', value: 20000 },
    { asOf: '2026-10-31', value: 21000 },
  ],
  holdings: [{ asset_id: 'W1', current_value: 12100 }],
  ledger: [
    { portfolio: 'Okafor Household', date: '2025-08-10', type: 'buy', assetId: 'W1', quantity: 1, amount: 11800, currency: 'USD', source: { file: 'ledger.csv', row: 2 } },
    { portfolio: 'Okafor Household', date: '2026-10-20', type: 'fee', amount: 150, currency: 'USD', source: { file: 'ledger.csv', row: 3 } },
  ],
};

function source(answer: () => Promise<RecordedPast | undefined>): HistorySource & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    monthEnds: async () => [],
    portfolios: async () => [],
    performance: async () => undefined,
    past: (portfolio) => {
      asked.push(portfolio);
      return answer();
    },
  };
}
const everyone = { allows: () => true };
const nobody = { allows: () => false };
function context(): RequestContext & { problems: string[] } {
  const problems: string[] = [];
  const log = { error: (m: string) => problems.push(m) } as unknown as Log;
  return { user: { id: 'key', name: null, signedIn: false }, operation: 'report', assets: undefined, upstreamCalls: 0, log, problems };
}

describe('"Export report": the past its returns rest on', () => {
  it("the recorded month-ends, the holdings' values at the latest, and the recorded ledger plus the sheet's rows bought since", async () => {
    const ctx = context();
    const past = await exportPast(input(), { asOf: AS_OF, currency: 'USD' }, { source: source(async () => recorded), access: everyone }, ctx);
    expect(past.source).toBe("the firm's history database");
    expect(past.recorded).toEqual(recorded.monthEnds);
    expect(past.previousHoldings).toEqual({ asOf: '2026-10-31', holdings: recorded.holdings });
    // W1 (bought before the month-end) is the ledger's own buy, not counted twice; W2 (bought since) is added.
    expect(past.ledger.entries.map((e) => [e.date, e.type, e.assetId ?? null, e.amount])).toEqual([
      ['2025-08-10', 'buy', 'W1', 11800],
      ['2026-10-20', 'fee', null, 150],
      ['2026-11-05', 'buy', 'W2', 7000],
    ]);
    expect(ctx.historyKey).toEqual({ portfolio: 'Okafor Household' });
  });

  it('none recorded: the holdings alone, "no earlier month-end recorded"', async () => {
    const past = await exportPast(input(), { asOf: AS_OF, currency: 'USD' }, { source: source(async () => undefined), access: everyone }, context());
    expect(past).toMatchObject({ source: 'this report alone (no earlier month-end recorded)', recorded: [] });
    expect(past.ledger.entries.map((e) => e.assetId)).toEqual(['W1', 'W2']);
  });

  it('not allowed: refused before the database is asked, audited with the name', async () => {
    const s = source(async () => recorded);
    const ctx = context();
    const past = await exportPast(input(), { asOf: AS_OF, currency: 'USD' }, { source: s, access: nobody }, ctx);
    expect(past.source).toBe('this report alone (not allowed to read the recorded history of the portfolio Okafor Household)');
    expect(past.recorded).toEqual([]);
    expect(s.asked).toEqual([]);
    expect(ctx.historyKey).toEqual({ portfolio: 'Okafor Household' });
  });

  it('no database; a database that cannot be read (its words to the log only); a name no report can have', async () => {
    expect((await exportPast(input(), { asOf: AS_OF, currency: 'USD' }, { source: undefined, access: everyone }, context())).source).toBe('this report alone (the add-in host has no history database)');
    const ctx = context();
    // As the host runs each request: its problems go to the host's log.
    const failing = await runInRequestContext(ctx, () => exportPast(input(), { asOf: AS_OF, currency: 'USD' }, { source: source(async () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.9:5432'))), access: everyone }, ctx));
    expect(failing.source).toBe('this report alone (the history database could not be read just now)');
    expect(ctx.problems).toEqual([expect.stringContaining('ECONNREFUSED')]);
    const s = source(async () => recorded);
    const odd = await exportPast(input('Okafor \u0000Household'), { asOf: AS_OF, currency: 'USD' }, { source: s, access: everyone }, context());
    expect(odd.source).toBe('this report alone (no earlier month-end recorded)');
    expect(s.asked).toEqual([]);
  });

  it('a flow in another currency than the report: the holdings alone, saying the host holds no exchange rates', async () => {
    const inEuro = { ...recorded, ledger: [...recorded.ledger, { ...recorded.ledger[1]!, currency: 'EUR', source: { file: 'ledger.csv', row: 4 } }] };
    const past = await exportPast(input(), { asOf: AS_OF, currency: 'USD' }, { source: source(async () => inEuro), access: everyone }, context());
    expect(past.source).toBe('this report alone (its flows in EUR cannot be converted to USD without exchange rates, which the add-in host does not hold; the month-end report has them)');
    expect(past.recorded).toEqual([]);
  });
});
