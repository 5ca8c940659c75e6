import type { SegmentId } from '../wire';
import type { CONDITIONS } from '../wire';
import type { Language } from '../i18n/languages';
import type { RowReason } from './row-reasons';
import type { CoverInput } from '../insurance/types';

/** Where a holding came from, as the user sees it: a spreadsheet row counts the header as row 1; a JSON item is 1-based. */
export interface SourceRef {
  file: string;
  sheet?: string;
  row: number;
}

/** One validated line of a holdings file. */
export interface Holding {
  portfolio: string;
  source: SourceRef;
  segment: SegmentId;
  /** From the file, or derived from the descriptors (formatAssetId) so it keys checkpoints and month-on-month. */
  assetId: string;
  /** Named by an id (the file's asset_id, or the one the service answered with): the id, not descriptors, is what the service is asked for (requests.ts). */
  assetIdGiven?: boolean;
  brand: string;
  model: string;
  reference?: string;
  year?: number;
  condition?: (typeof CONDITIONS)[number];
  boxPapers?: boolean;
  size?: string;
  quantity: number;
  /** Total paid for the holding, all units. */
  purchasePrice: number;
  purchaseDate: string;
  /** ISO 4217 code of purchase_price (any code; converted with the run's exchange rates). */
  currency?: string;
  notes?: string;
  /** The lot's name (issue 34), so a transactions file's sale can name it; unique within the portfolio. */
  lot?: string;
  medium?: string;
  sizeCm?: { width: number; height: number };
  /** What the row says of its cover (issue 37); absent when it says nothing. */
  cover?: CoverInput;
  /** The row's insured value or its currency was refused: its cover is unknown, so the insurance review leaves it out. */
  coverRefused?: true;
}

/** A row that could not be taken as a holding, or one the service could not value. */
export interface RowProblem {
  portfolio: string;
  file: string;
  sheet?: string;
  /** null for a problem with the portfolio as a whole (e.g. the day's budget). */
  row: number | null;
  field: string;
  value?: string;
  /** In English, as the report's errors print it. */
  reason: string;
  /** The same reason as a catalogue message, where the reader has one (row-reasons.ts): what a user in another language is shown. */
  said?: RowReason;
}

export interface PortfolioInput {
  name: string;
  files: string[];
  holdings: Holding[];
  problems: RowProblem[];
  /** What reading its files left out (columns no one reads), for the analyst's notes; absent when nothing was. */
  readNotes?: string[];
  /** The language its client documents are in (a `language` column, issue 36); absent: the run's --language. */
  language?: Language;
}

/** A file that cannot be read at all: bad usage, exit code 2. */
export class InputError extends Error {
  override name = 'InputError';
}

/** A raw record as read from any format, before validation: header-normalised keys. */
export interface RawRecord {
  source: SourceRef;
  values: Record<string, unknown>;
}
