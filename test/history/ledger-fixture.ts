/**
 * A ledger of three portfolios over 25 month-ends (issue 23's end-to-end case): buys, sales at a
 * gain and at a loss, partial sales of wine cases, fees and income, as a transactions csv. Prices
 * are typed by hand, as a firm's ledger would be; the sandbox values the assets as of each date.
 */

/** The 25 month-ends the runs go through: 2024-10-31 … 2026-10-31. */
export const MONTH_ENDS: string[] = Array.from({ length: 25 }, (_, i) => {
  const d = new Date(Date.UTC(2024, 9 + i + 1, 0));
  return d.toISOString().slice(0, 10);
});

const HEADER = 'date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,notes';

const WATCH = 'watches,Rolex,Datejust 41,126334,2019';
const BIRKIN = 'bags,Hermès,Constance 24 Epsom,CONSTANCE24,2021';
const WINE = 'wine,Château Lafite Rothschild,Pauillac,,2010';
const ART = 'art,Yayoi Kusama,Pumpkin (Yellow),,1998';
const CARD = 'cards,Pokémon,Charizard Base Set Holo Unlimited PSA 8,BS4-UNL-PSA8,1999';
const CAR = 'automobiles,Porsche,911 Carrera RS 2.7,,1973';
const NONE = ',,,,';

type Row = [date: string, type: string, portfolio: string, asset: string, quantity: string, amount: number, notes?: string];

const ROWS: Row[] = [
  // Ashworth: a watch and a case of wine, half the case sold, the watch sold at a gain, art bought, storage fees.
  ['2024-10-05', 'buy', 'Ashworth', WATCH, '1', 11800],
  ['2024-11-12', 'buy', 'Ashworth', WINE, '12', 14400, 'case of 12'],
  ['2025-01-15', 'fee', 'Ashworth', NONE, '', 180, 'storage'],
  ['2025-04-15', 'fee', 'Ashworth', NONE, '', 180, 'storage'],
  ['2025-06-18', 'sell', 'Ashworth', WINE, '6', 8100, 'half the case'],
  ['2025-07-15', 'fee', 'Ashworth', NONE, '', 180, 'storage'],
  ['2025-10-15', 'fee', 'Ashworth', NONE, '', 180, 'storage'],
  ['2026-02-03', 'buy', 'Ashworth', ART, '1', 52000],
  ['2026-08-21', 'sell', 'Ashworth', WATCH, '1', 13900],
  ['2026-09-30', 'fee', 'Ashworth', NONE, '', 200, 'storage, quarter end'],
  // Bellamy: a bag and a card, income from lending the card to an exhibition, the card sold at a loss, a second bag.
  ['2024-10-20', 'buy', 'Bellamy', BIRKIN, '1', 9800],
  ['2024-10-20', 'buy', 'Bellamy', CARD, '2', 9000],
  ['2025-03-10', 'income', 'Bellamy', CARD, '', 400, 'exhibition loan'],
  ['2025-09-01', 'sell', 'Bellamy', CARD, '1', 3100, 'one of two'],
  ['2025-12-31', 'buy', 'Bellamy', BIRKIN, '1', 10400, 'a second one'],
  ['2026-05-29', 'sell', 'Bellamy', CARD, '1', 2900],
  ['2026-10-31', 'fee', 'Bellamy', NONE, '', 95, 'insurance, paid on the month-end'],
  // Castellane: a car bought in the second month, wine bought in two lots and sold first in, first out.
  ['2024-11-02', 'buy', 'Castellane', CAR, '1', 540000],
  ['2024-12-10', 'buy', 'Castellane', WINE, '6', 7300],
  ['2025-05-14', 'buy', 'Castellane', WINE, '6', 7900],
  ['2025-08-08', 'sell', 'Castellane', WINE, '8', 11200, 'first lot and two of the second'],
  ['2026-01-20', 'income', 'Castellane', NONE, '', 2500, 'car hired for a film'],
  ['2026-06-30', 'fee', 'Castellane', NONE, '', 1200, 'restoration'],
];

export function ledgerCsv(): string {
  const cell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return [HEADER, ...ROWS.map(([date, type, portfolio, asset, quantity, amount, notes]) => [date, type, portfolio, asset, quantity, String(amount), 'USD', cell(notes ?? '')].join(','))].join('\n') + '\n';
}

/** Each portfolio's flows (client's side: in positive) with their row type, as the issue defines them, independent of src/. */
export function flowsOf(portfolio: string): { date: string; amount: number; type: string }[] {
  const inward = new Set(['buy', 'fee', 'transfer_in']);
  return ROWS.filter((r) => r[2] === portfolio).map((r) => ({ date: r[0], amount: inward.has(r[1]) ? r[5] : -r[5], type: r[1] }));
}

export const PORTFOLIOS = ['Ashworth', 'Bellamy', 'Castellane'];
