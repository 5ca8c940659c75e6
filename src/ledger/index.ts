/** A portfolio's ledger (issue 23): the shared types and what is held, first in, first out. Pure: the file reader (read-ledger.ts, Node only) is imported on its own. */
export * from './types';
export { buildLots, ledgerOrder, type LotsResult } from './lots';
