/**
 * Words the build and the writers both show the client (issue 36): a segment's name and the
 * service's signal codes, in the report's language. Codes the catalogue does not know yet (the
 * service may add one) are shown as the house always showed them.
 */
import type { Translator } from '../src/i18n';
import { MOMENTUM_VALUES, PRICE_TRENDS, SENTIMENTS, SENTIMENT_TRENDS, SEVERITIES, VOLUME_LEVELS, segmentById } from '../src/wire';
import { readable } from './writers/labels';

/** A segment's name ("Luxury Watches", "Luxusuhren"); an id the service added since stays as it came. */
export const segmentName = (tr: Translator, id: string): string => (segmentById(id) ? tr.t('notes.segment', { segment: id }) : id);

const CODES = new Set<string>([...MOMENTUM_VALUES, ...VOLUME_LEVELS, ...SENTIMENTS, ...PRICE_TRENDS, ...SENTIMENT_TRENDS, ...SEVERITIES]);

/** A signal code as a word ("above_average" → "Above average", "Überdurchschnittlich"). */
export const codeWord = (tr: Translator, code: string): string => (CODES.has(code) ? tr.t('dashboard.code', { code }) : readable(code));

/** A segment in a table cell: its name, or an unknown id made readable ("real_estate" → "Real estate"), as the writers' segmentLabel. */
export const segmentLabel = (tr: Translator, id: string): string => (segmentById(id) ? segmentName(tr, id) : readable(id));
