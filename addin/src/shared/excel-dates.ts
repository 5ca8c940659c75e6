import { isRealDate } from '../../../src/wire';

/**
 * Excel's date serial numbers (the 1900 date system every Excel on Windows, Mac and the web uses
 * by default): 1 is 1900-01-01, and 60 the 29 February 1900 that never was (kept from Lotus
 * 1-2-3), so from 61 (1900-03-01) on a serial counts days since 1899-12-30.
 */
const EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;
/** 1900-03-01: serials before it are a few weeks of 1900 no history reaches. */
const FIRST_SERIAL = 61;
/** 9999-12-31, Excel's last date. */
const LAST_SERIAL = 2_958_465;

/** The serial's day as YYYY-MM-DD (a time of day in the fraction is dropped); undefined outside 1900-03-01 … 9999-12-31. */
export function serialToIsoDate(serial: number): string | undefined {
  if (!Number.isFinite(serial) || serial < FIRST_SERIAL || serial >= LAST_SERIAL + 1) return undefined;
  return new Date(EPOCH_MS + Math.floor(serial) * DAY_MS).toISOString().slice(0, 10);
}

/** A YYYY-MM-DD date (from 1900-03-01) as the serial Excel shows as that date. */
export function isoDateToSerial(date: string): number {
  if (!isRealDate(date)) throw new Error(`not a date: ${date}`);
  return Math.round((Date.parse(`${date}T00:00:00Z`) - EPOCH_MS) / DAY_MS);
}
