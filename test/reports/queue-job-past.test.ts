import { describe, expect, it } from 'vitest';
import { THIS_REPORT_ALONE, type HistoryInput } from '../../reports/build/performance';
import type { PreviousRun } from '../../reports/build/previous';
import { consolidatedPast, jobPast } from '../../reports/queue/job-past';
import type { PortfolioLedger } from '../../reports/run/run-inputs';

/**
 * Issue 34: what a worker sends back of a portfolio's past, and what the coordinating run builds
 * the consolidated report on (the end-to-end run is test/scale-out/queue-history.test.ts).
 */
const ledger: PortfolioLedger = {
  entries: [{ portfolio: 'Ashford', date: '2025-01-10', type: 'buy', assetId: 'W1', quantity: 1, amount: 11800, currency: 'USD', source: { file: 'ledger.csv', row: 2 } }],
  realisations: [],
};
const at = { portfolio: 'Ashford', asOf: '2025-03-31', currency: 'USD' };
const read: HistoryInput = {
  ledger,
  recorded: [
    { asOf: '2025-01-31', value: 12000 },
    { asOf: '2025-02-28', value: 23000 },
  ],
  source: "the firm's history database",
  previousHoldings: { asOf: '2025-02-28', holdings: [{ asset_id: 'W1', current_value: 12500 }] },
};
const quiet = () => {};

describe('a portfolio past through the queue', () => {
  it("the worker's result carries what it read without the ledger; the run adds back the ledger it queued", async () => {
    const sent = jobPast(read);
    expect(sent).not.toHaveProperty('ledger');
    // Through Redis: JSON both ways.
    const back = await consolidatedPast(JSON.parse(JSON.stringify(sent)), ledger, at, undefined, quiet);
    expect(back).toEqual(read);
  });

  it('without a worker\'s account (a failed job, an older worker): the previous report, else the holdings alone', async () => {
    const previous: PreviousRun = { byPortfolio: new Map([['Ashford', { name: 'Ashford', as_of: '2025-02-28', currency: 'USD', summary: { current_value: 23100 }, holdings: [{ asset_id: 'W1', current_value: 12600 }] }]]) };
    const fromPrevious = await consolidatedPast(undefined, ledger, at, previous, quiet);
    expect(fromPrevious.source).toBe('the previous report (--previous)');
    expect(fromPrevious.recorded).toEqual([{ asOf: '2025-02-28', value: 23100 }]);
    expect(fromPrevious.ledger).toBe(ledger);
    const alone = await consolidatedPast(undefined, ledger, at, undefined, quiet);
    expect(alone).toEqual({ ledger, recorded: [], source: THIS_REPORT_ALONE });
  });
});
