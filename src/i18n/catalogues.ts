/**
 * Every catalogue area, by name: a message key is "<area>.<key>" ("common.twr"). To add an area,
 * add its folder under messages/ and one line here (docs/i18n.md).
 */
import type { Area, Messages } from './catalogue';
import common from './messages/common';
import notes from './messages/notes';
import dashboard from './messages/dashboard';
import columns from './messages/columns';
import xlsx from './messages/xlsx';
import pdf from './messages/pdf';
import addin from './messages/addin';
import insurance from './messages/insurance';
import html from './messages/html';

export const AREAS = {
  common,
  notes,
  dashboard,
  columns,
  xlsx,
  pdf,
  addin,
  insurance,
  html,
} satisfies Record<string, Area<Messages>>;

type Areas = typeof AREAS;
type KeysOf<A extends keyof Areas> = Extract<keyof Areas[A]['en'], string>;

/** Every message key, from the English catalogues: a key English lacks is a type error. */
export type MessageKey = { [A in keyof Areas]: `${A}.${KeysOf<A>}` }[keyof Areas];
