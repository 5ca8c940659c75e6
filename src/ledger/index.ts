/** A portfolio's ledger (issue 23): the shared types and what is held, first in, first out. */
export * from './types';
export { buildLots, ledgerOrder, type LotsResult } from './lots';
