import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isoDateHint } from '../../src/holdings/cells';
import { buildLots } from '../../src/ledger';
import { heldHoldings, sourceKey } from '../../src/ledger/held-holdings';
import { loadLedger } from '../../src/ledger/read-ledger';
import type { LedgerProblem } from '../../src/ledger/types';
import { tempDir } from '../reports/helpers';

/** Issue 34: specific identification (`lot`) and units that mean what they say (`unit`), through the reader and the lot maths. */

const AS_OF = '2026-03-31';
let dir: string;
beforeAll(() => {
  dir = tempDir('svc-lots-');
});

const HEADER = 'date,type,segment,brand,model,reference,year,size,unit,lot,quantity,amount,currency,notes';
const WATCH = 'watches,Rolex,Daytona,116500LN,2020';
const OTHER_WATCH = 'watches,Omega,Speedmaster,310.30.42.50.01.001,2021';
const PETRUS = 'wine,Petrus,Pomerol,,2010';
const MACALLAN = 'spirits,The Macallan,25 Year Old,,2019';

let n = 0;
/** One portfolio's ledger from csv rows (the header is row 1, so the rows are 2, 3, …), read, then its lots built. */
async function ledger(rows: string[]) {
  const file = join(dir, `ledger-${++n}.csv`);
  writeFileSync(file, [HEADER, ...rows].join('\n') + '\n');
  const read = await loadLedger([file], { asOf: AS_OF });
  const lots = buildLots(read.entries, AS_OF);
  const rowsBySource = new Map(read.entries.map((e) => [sourceKey(e.source), e]));
  const holdings = heldHoldings(lots.lots, (s) => ({ entry: rowsBySource.get(sourceKey(s)) }));
  return { read, lots, holdings, problems: [...read.problems, ...lots.problems] };
}

const where = (problems: readonly LedgerProblem[]) => problems.map((p) => [p.source.row, p.field]);

describe('specific identification: lot', () => {
  it('a sale naming its lot realises that lot\'s cost, not the oldest one\'s', async () => {
    const { problems, lots, holdings } = await ledger([
      `2025-01-10,buy,${WATCH},,,First,1,16700,USD,`,
      `2025-02-10,buy,${WATCH},,,Second,1,19950,USD,`,
      `2025-06-10,sell,${WATCH},,,second,1,18850,USD,sold below cost`,
    ]);
    expect(problems).toEqual([]);
    // The lot named (compared without regard to case), not first in, first out: a loss of 1,100, not a gain.
    expect(lots.realisations.map((r) => [r.lot, r.opened, r.quantity, r.cost, r.proceeds])).toEqual([['Second', '2025-02-10', 1, 19950, 18850]]);
    expect(lots.lots.map((l) => [l.name, l.opened, l.cost])).toEqual([['First', '2025-01-10', 16700]]);
    expect(holdings.map((h) => [h.purchaseDate, h.purchasePrice])).toEqual([['2025-01-10', 16700]]);
    // A named sale chooses; nothing to say about first in, first out.
    expect(lots.notes).toEqual([]);
  });

  it('without a lot, first in, first out stays, and where the lots cost differently the analyst note says which was taken', async () => {
    const { problems, lots } = await ledger([
      `2025-01-10,buy,${WATCH},,,,1,16700,USD,`,
      `2025-02-10,buy,${WATCH},,,Second,1,19950,USD,`,
      `2025-06-10,sell,${WATCH},,,,1,18850,USD,`,
    ]);
    expect(problems).toEqual([]);
    expect(lots.realisations.map((r) => [r.lot, r.opened, r.cost])).toEqual([[undefined, '2025-01-10', 16700]]);
    expect(lots.notes).toHaveLength(1);
    const note = lots.notes[0]!;
    expect(note).toMatch(/row 4: the sale of 1 SVC-WAT-ROLEX-116500LN-2020 on 2025-06-10 names no lot, so first in, first out took the lot bought on 2025-01-10 \(ledger-\d+\.csv row 2\) at 16,700 USD each/);
    expect(note).toMatch(/lot "Second" \(bought on 2025-02-10\) cost 19,950 USD each/);
    expect(note).toMatch(/Naming the lot sold \(a lot column on its buy row, in the holdings or transactions file, and on the sale's row\) would choose another/);
  });

  it('no note where the lots first in, first out could take from cost the same each', async () => {
    const { lots } = await ledger([
      `2025-01-10,buy,${WATCH},,,,1,16700,USD,`,
      `2025-02-10,buy,${WATCH},,,,2,33400,USD,`,
      `2025-06-10,sell,${WATCH},,,,1,18850,USD,`,
    ]);
    expect(lots.realisations).toHaveLength(1);
    expect(lots.notes).toEqual([]);
  });

  it('refuses bad lot references by row and field, and keeps the rest', async () => {
    const { problems, lots } = await ledger([
      /* 2 */ `2025-01-10,buy,${WATCH},,,A,1,16700,USD,`,
      /* 3 */ `2025-01-11,buy,${OTHER_WATCH},,,Omega lot,1,7000,USD,`,
      /* 4 */ `2025-01-12,buy,${WATCH},,,a,1,17000,USD,same name in another case`,
      /* 5 */ `2025-02-01,sell,${WATCH},,,Nowhere,1,18000,USD,unknown lot`,
      /* 6 */ `2025-02-02,sell,${WATCH},,,Omega lot,1,18000,USD,another asset's lot`,
      /* 7 */ `2025-02-03,sell,${WATCH},,,Later,1,18000,USD,bought later`,
      /* 8 */ `2025-02-04,fee,,,,,,,,A,,100,USD,a fee takes from no lot`,
      /* 9 */ `2025-02-05,sell,${WATCH},,,A,1,18000,USD,`,
      /* 10 */ `2025-02-06,sell,${WATCH},,,A,1,18000,USD,already sold`,
      /* 11 */ `2025-03-01,buy,${WATCH},,,Later,1,17500,USD,`,
    ]);
    expect(where(problems)).toEqual([
      [8, 'lot'],
      [4, 'lot'],
      [5, 'lot'],
      [6, 'lot'],
      [7, 'lot'],
      [10, 'lot'],
    ]);
    const reason = (row: number) => problems.find((p) => p.source.row === row)!.reason;
    expect(reason(4)).toMatch(/^"a" is already the name of lot "A" \(bought on 2025-01-10\) of SVC-WAT-ROLEX-116500LN-2020; allowed: a name no other lot/);
    expect(reason(5)).toMatch(/^no lot named "Nowhere" is bought in portfolio ledger-\d+; allowed: a lot of SVC-WAT-ROLEX-116500LN-2020 held on 2025-02-01: "A"$/);
    expect(reason(6)).toMatch(/^lot "Omega lot" is SVC-WAT-OMEGA-31030425001001-2021, not SVC-WAT-ROLEX-116500LN-2020/);
    expect(reason(7)).toMatch(/^lot "Later" is bought on 2025-03-01, after this sell on 2025-02-03/);
    expect(reason(8)).toMatch(/lot names the lot a buy or transfer in opens.*a fee takes from no lot/);
    expect(reason(10)).toMatch(/^lot "A" \(bought on 2025-01-10\) was sold or transferred out in full before 2025-02-06/);
    // The good rows: lot A sold once; the Omega and lot Later held.
    expect(lots.realisations.map((r) => [r.source.row, r.lot, r.cost])).toEqual([[9, 'A', 16700]]);
    expect(lots.lots.map((l) => l.name).sort()).toEqual(['Later', 'Omega lot']);
  });

  it('a sale of more than its lot holds is refused, naming what is left of the lot', async () => {
    const { problems } = await ledger([`2025-01-10,buy,${PETRUS},,bottle,Cellar 1,12,12000,EUR,`, `2025-02-01,buy,${PETRUS},,bottle,,12,13000,EUR,`, `2025-03-01,sell,${PETRUS},,bottle,Cellar 1,13,15000,EUR,`]);
    expect(where(problems)).toEqual([[4, 'quantity']]);
    expect(problems[0]!.reason).toMatch(/^sells 13 from lot "Cellar 1" \(bought on 2025-01-10\) but 12 \(12 bottles\) is left of it on 2025-03-01/);
  });

  it('a transfer out names its lot as a sale does, and realises nothing', async () => {
    const { problems, lots } = await ledger([`2025-01-10,buy,${WATCH},,,A,1,16700,USD,`, `2025-02-10,buy,${WATCH},,,B,1,19950,USD,`, `2025-06-10,transfer_out,${WATCH},,,B,1,19000,USD,gift`]);
    expect(problems).toEqual([]);
    expect(lots.realisations).toEqual([]);
    expect(lots.transfersOut.map((r) => [r.lot, r.cost])).toEqual([['B', 19950]]);
    expect(lots.lots.map((l) => l.name)).toEqual(['A']);
  });
});

describe('units that mean what they say: unit', () => {
  it("the docs' case: 12 bottles bought (a case), 6 sold (half of it): 6 bottles held, valued as bottles", async () => {
    const { problems, holdings, lots } = await ledger([`2025-02-01,buy,${PETRUS},,bottle,,12,48000,EUR,a case`, `2025-03-10,sell,${PETRUS},,bottle,,6,30000,EUR,half the case`]);
    expect(problems).toEqual([]);
    expect(holdings.map((h) => [h.assetId, h.size, h.quantity, h.purchasePrice])).toEqual([['SVC-WIN-PETRUS-POMEROL-2010-S75CL', '75cl', 6, 24000]]);
    expect(lots.realisations.map((r) => [r.quantity, r.cost, r.proceeds])).toEqual([[6, 24000, 30000]]);
  });

  it('a case bought, six bottles sold: the rest is six 75 cl bottles (12 to a case), not half a case', async () => {
    const { problems, holdings, lots } = await ledger([`2025-02-01,buy,${PETRUS},,case,,1,48000,EUR,`, `2025-03-10,sell,${PETRUS},,bottle,,6,30000,EUR,`]);
    expect(problems).toEqual([]);
    expect(holdings.map((h) => [h.assetId, h.size, h.quantity, h.purchasePrice])).toEqual([['SVC-WIN-PETRUS-POMEROL-2010-S75CL', '75cl', 6, 24000]]);
    // The realised line counts the sale's unit and names the sale's asset: six bottles.
    expect(lots.realisations.map((r) => [r.assetId, r.quantity, r.cost])).toEqual([['SVC-WIN-PETRUS-POMEROL-2010-S75CL', 6, 24000]]);
  });

  it('half a case sold as 0.5 case is six bottles; whole cases left stay cases', async () => {
    const half = await ledger([`2025-02-01,buy,${PETRUS},,case,,1,48000,EUR,`, `2025-03-10,sell,${PETRUS},,case,,0.5,30000,EUR,`]);
    expect(half.problems).toEqual([]);
    expect(half.holdings.map((h) => [h.assetId, h.quantity])).toEqual([['SVC-WIN-PETRUS-POMEROL-2010-S75CL', 6]]);
    const whole = await ledger([`2025-02-01,buy,${PETRUS},,case,,2,96000,EUR,`, `2025-03-10,sell,${PETRUS},,,,1,50000,EUR,no unit: the service's, a case`]);
    expect(whole.problems).toEqual([]);
    expect(whole.holdings.map((h) => [h.assetId, h.size, h.quantity, h.purchasePrice])).toEqual([['SVC-WIN-PETRUS-POMEROL-2010', undefined, 1, 48000]]);
  });

  it('refuses at the row that asks for it: part of a watch, part of a bottle, a unit where none applies, a spirits or magnum case', async () => {
    const { problems, holdings } = await ledger([
      /* 2 */ `2025-01-10,buy,${WATCH},,,,1,16700,USD,`,
      /* 3 */ `2025-02-10,sell,${WATCH},,,,0.5,9000,USD,half a watch`,
      /* 4 */ `2025-01-10,buy,${PETRUS},,case,,1,48000,EUR,`,
      /* 5 */ `2025-02-10,sell,${PETRUS},,case,,0.3,9000,EUR,3.6 bottles`,
      /* 6 */ `2025-02-11,sell,${PETRUS},,bottle,,1.5,9000,EUR,`,
      /* 7 */ `2025-02-12,buy,${WATCH},,bottle,,1,9000,USD,`,
      /* 8 */ `2025-02-13,buy,${MACALLAN},,case,,1,9000,USD,`,
      /* 9 */ `2025-02-14,buy,wine,Petrus,Pomerol,,2010,magnum,case,,1,9000,EUR,`,
      /* 10 */ `2025-02-15,buy,${PETRUS},,crate,,1,9000,EUR,`,
    ]);
    expect(where(problems)).toEqual([
      [3, 'quantity'],
      [5, 'quantity'],
      [6, 'quantity'],
      [7, 'unit'],
      [8, 'unit'],
      [9, 'unit'],
      [10, 'unit'],
    ]);
    const reason = (row: number) => problems.find((p) => p.source.row === row)!.reason;
    // Named at the sale, with the asset: never accepted and blamed later on the buy row.
    expect(reason(3)).toMatch(/^a sell of 0.5 of Rolex Daytona 2020 \(SVC-WAT-ROLEX-116500LN-2020\): a watch is one item and cannot be divided; allowed: a whole number of items/);
    expect(reason(5)).toMatch(/^a sell of 0.3 of a case of Petrus Pomerol 2010 .* is 3.6 bottles: wine is held by the bottle/);
    expect(reason(6)).toMatch(/1.5 bottles of Petrus Pomerol 2010 .*: a bottle cannot be divided/);
    expect(reason(7)).toMatch(/unit \(case or bottle\) is for wine and spirits only; a watches row's quantity counts items/);
    expect(reason(8)).toMatch(/spirits are counted in bottles/);
    expect(reason(9)).toMatch(/a row of size "magnum" counts its bottles/);
    expect(reason(10)).toMatch(/unit must be case or bottle/);
    // What was accepted is held whole: the watch and the case.
    expect(holdings.map((h) => [h.assetId, h.quantity]).sort()).toEqual([
      ['SVC-WAT-ROLEX-116500LN-2020', 1],
      ['SVC-WIN-PETRUS-POMEROL-2010', 1],
    ]);
  });

  it('the size column keeps working: a 75 cl size counts bottles of the same stock as the case', async () => {
    const { problems, holdings } = await ledger([`2025-01-10,buy,${PETRUS},,,,2,96000,EUR,two cases`, `2025-02-10,sell,wine,Petrus,Pomerol,,2010,75cl,,,3,12000,EUR,three bottles`]);
    expect(problems).toEqual([]);
    expect(holdings.map((h) => [h.assetId, h.quantity])).toEqual([['SVC-WIN-PETRUS-POMEROL-2010-S75CL', 21]]);
  });
});

describe('a real date in the date hint', () => {
  it('31/02/2025 and 2025-02-31 are answered with a day that exists, never "2025-02-31"', async () => {
    expect(isoDateHint('31/02/2025')).toBe('there is no 31 February 2025 (it has 28 days): write a day that exists, such as its last, 2025-02-28');
    expect(isoDateHint('2025-02-31')).toBe('there is no 31 February 2025 (it has 28 days): write a day that exists, such as its last, 2025-02-28');
    expect(isoDateHint('29/02/2024')).toBe('write 2024-02-29');
    expect(isoDateHint('31/12/2023')).toBe('write 2023-12-31');
    expect(isoDateHint('01/02/2023')).toBe('write 2023-02-01 (day first) or 2023-01-02 (month first)');
    const { problems } = await ledger([`31/02/2025,buy,${WATCH},,,,1,16700,USD,`, `2025-04-31,buy,${WATCH},,,,1,16700,USD,`]);
    expect(problems.map((p) => [p.field, p.reason])).toEqual([
      ['date', expect.stringMatching(/such as its last, 2025-02-28 \(found "31\/02\/2025"\)$/)],
      ['date', expect.stringMatching(/there is no 31 April 2025 \(it has 30 days\).*2025-04-30/)],
    ]);
    // The day offered exists (the value found is still quoted, as for every bad cell).
    for (const p of problems) expect(p.reason).not.toMatch(/(write|such as|last,) 2025-0[24]-31/);
  });
});
