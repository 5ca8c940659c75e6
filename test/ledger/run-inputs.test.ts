import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readRunInputs, sayInputs } from '../../reports/run/run-inputs';
import { realisedGains } from '../../src/performance/gains';
import { ROOT, tempDir } from '../reports/helpers';

/**
 * Issue 34, the run's reading of a ledger (no service): refused rows listed for stderr by row and
 * field, first-in-first-out choices among lots of different costs in the analyst notes, and a
 * ledger whose wine rows are read as cases for want of a unit warned about.
 */
describe("a run's ledger inputs", () => {
  const dir = tempDir('svc-run-inputs-');
  const file = join(dir, 'okafor.csv');
  writeFileSync(
    file,
    [
      'Portfolio,Date,Type,Segment,Brand,Model,Reference,Year,Quantity,Amount,Currency',
      'Okafor,2025-01-10,buy,watches,Rolex,Daytona,116500LN,2020,1,16700,USD',
      'Okafor,2025-02-10,buy,watches,Rolex,Daytona,116500LN,2020,1,19950,USD',
      'Okafor,2025-03-10,buy,wine,Petrus,Pomerol,,2010,12,48000,USD',
      'Okafor,2025-06-10,sell,watches,Rolex,Daytona,116500LN,2020,1,18850,USD',
      'Okafor,2025-06-11,sell,watches,Rolex,Daytona,116500LN,2020,0.5,9000,USD',
      'Okafor,31/06/2025,fee,,,,,,,100,USD',
    ].join('\n') + '\n',
  );

  it('lists every refused row for stderr, notes the lot first in, first out took, and warns of wine read as cases', async () => {
    const loaded = await readRunInputs([file], { asOf: '2025-12-31' });
    expect(loaded.ledgerProblems.map((p) => [p.source.row, p.field])).toEqual([
      [6, 'quantity'],
      [7, 'date'],
    ]);
    const lines: string[] = [];
    sayInputs(loaded, '2025-12-31', (l) => lines.push(l));
    const at = lines.indexOf('2 ledger rows refused (left out; the rest of each ledger is reported, and the run exits 3):');
    expect(at, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(/^ {2}Okafor: .*okafor\.csv row 6, quantity: a sell of 0\.5 of Rolex Daytona 2020 \(SVC-WAT-ROLEX-116500LN-2020\): a watch is one item/);
    expect(lines[at + 2]).toMatch(/^ {2}Okafor: .*okafor\.csv row 7, date: .*there is no 31 June 2025 \(it has 30 days\).*2025-06-30/);
    // Twelve of a wine without a unit are twelve cases, and the reader says how to say otherwise.
    expect(lines.some((l) => /1 wine row gives no unit and no size, so its quantity counts cases of 12 × 75 cl .*12 is twelve cases\. Add a unit column/.test(l))).toBe(true);
    const okafor = loaded.portfolios.find((p) => p.name === 'Okafor')!;
    expect(okafor.readNotes).toEqual([expect.stringMatching(/row 5: the sale of 1 SVC-WAT-ROLEX-116500LN-2020 on 2025-06-10 names no lot, so first in, first out took the lot bought on 2025-01-10 .* at 16,700 USD each; the lot bought on 2025-02-10 .* cost 19,950 USD each\. Naming the lot sold/)]);
    // The refused rows are also the portfolio's row problems, so the reports list them.
    expect(okafor.problems.map((p) => [p.row, p.field])).toEqual([
      [6, 'quantity'],
      [7, 'date'],
    ]);
  });

  it("a holdings file's lot column names its lots, so a sale in the transactions file can take the dearer one", async () => {
    const holdings = join(dir, 'tanaka-holdings.csv');
    const ledger = join(dir, 'tanaka-ledger.csv');
    writeFileSync(
      holdings,
      [
        'Portfolio,Segment,Brand,Model,Year,Quantity,Purchase Price,Purchase Date,Currency,Lot',
        'Tanaka,cards,Topps,LeBron James Chrome #111 Rookie PSA 10,2003,1,19950,2023-10-20,USD,dearer card',
        'Tanaka,cards,Topps,LeBron James Chrome #111 Rookie PSA 10,2003,1,16700,2023-09-15,USD,',
      ].join('\n') + '\n',
    );
    writeFileSync(ledger, ['date,type,portfolio,segment,brand,model,year,lot,quantity,amount,currency,notes', '2026-09-18,sell,Tanaka,cards,Topps,LeBron James Chrome #111 Rookie PSA 10,2003,Dearer Card,1,17800,USD,Sold below cost'].join('\n') + '\n');
    const loaded = await readRunInputs([holdings, ledger], { asOf: '2026-10-31' });
    expect(loaded.ledgerProblems).toEqual([]);
    // Sold below cost: the 19,950 card, a loss of 2,150 (first in, first out would have shown a gain of 1,100).
    expect(loaded.ledgers.get('Tanaka')!.realisations.map((r) => [r.lot, r.cost, r.proceeds])).toEqual([['dearer card', 19950, 17800]]);
    expect(loaded.portfolios[0]!.holdings.map((h) => h.purchasePrice)).toEqual([16700]);
    expect(loaded.portfolios[0]!.readNotes ?? []).toEqual([]);
  });

  it("the demo's card sale names its lot: Tanaka's realised gain is the proceeds less the 19,950 card's cost, a loss", async () => {
    const holdingsFile = join(ROOT, 'examples', 'meridian-wealth-clients.csv');
    const ledgerFile = join(ROOT, 'examples', 'demo-transactions.csv');
    // The files as a reader sees them (csv-parse, not the job's reader): the dearer card's buy row and the sale naming its lot.
    const holdingRows = parse(readFileSync(holdingsFile), { columns: true }) as Record<string, string>[];
    const saleRows = (parse(readFileSync(ledgerFile), { columns: true }) as Record<string, string>[]).filter((r) => r.portfolio === 'Tanaka Collection' && r.type === 'sell');
    expect(saleRows).toHaveLength(1);
    const sale = saleRows[0]!;
    const cards = holdingRows.filter((r) => r.Portfolio === 'Tanaka Collection' && r.Model === sale.model);
    expect(cards.map((r) => [Number(r['Purchase Price']), r.Lot])).toEqual([
      [19_950, sale.lot],
      [16_700, ''],
    ]);
    expect(sale.notes).toBe('Sold below cost');

    const loaded = await readRunInputs([holdingsFile, ledgerFile], { asOf: '2026-10-31' });
    expect(loaded.ledgerProblems).toEqual([]);
    const tanaka = loaded.ledgers.get('Tanaka Collection')!;
    const { lines, total } = realisedGains(tanaka.realisations, () => 1);
    expect(lines.map((l) => [l.lot, l.opened, l.costReporting, l.proceedsReporting])).toEqual([[sale.lot, '2023-10-20', 19_950, Number(sale.amount)]]);
    // 17,800 − 19,950: a loss of 2,150 (first in, first out took the 16,700 card: a gain of 1,100).
    expect(total).toBe(Number(sale.amount) - 19_950);
    expect(total).toBe(-2_150);
    // The cheaper card is what is still held, and no note says first in, first out chose for the sale.
    const held = loaded.portfolios.find((p) => p.name === 'Tanaka Collection')!.holdings.filter((h) => h.model === sale.model);
    expect(held.map((h) => h.purchasePrice)).toEqual([16_700]);
    expect((loaded.portfolios.find((p) => p.name === 'Tanaka Collection')!.readNotes ?? []).filter((n) => n.includes('names no lot'))).toEqual([]);
  });
});
