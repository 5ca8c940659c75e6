import type { LedgerEntry, TransactionType } from '../../src/ledger';

/** A ledger row of portfolio "P" from ledger.csv (row numbers as in the file: header is row 1). */
export function entry(row: number, date: string, type: TransactionType, assetId: string | undefined, quantity: number | undefined, amount: number, currency = 'EUR'): LedgerEntry {
  return {
    portfolio: 'P',
    date,
    type,
    ...(assetId !== undefined ? { assetId } : {}),
    ...(quantity !== undefined ? { quantity } : {}),
    amount,
    currency,
    source: { file: 'ledger.csv', row },
  };
}
