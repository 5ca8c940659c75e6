/**
 * The client's language in the build (issue 36): the translator of a report's language and the
 * few helpers every sentence the build composes shares. The JSON's machine values in English
 * (`returns_source`, `returns_unavailable`) become the client's words in ../client-words.ts.
 */
import { DEFAULT_LANGUAGE, translator, type Translator } from '../../src/i18n';
import type { BuildContext } from './context';
import { textDate } from '../writers/labels';

/** The translator of the language a build context writes in (the run's, or a portfolio's own). */
export const buildTranslator = (ctx: Pick<BuildContext, 'language'>): Translator => translator(ctx.language ?? DEFAULT_LANGUAGE);

/** English's words, for what stays the analyst's (stderr, analyst_notes): they are for the firm, not the client. */
export const analystTranslator = (): Translator => translator(DEFAULT_LANGUAGE);

/**
 * A date inside the method text: the house English (`en`) keeps the ISO date it has always printed
 * ("2026-09-30", which readers and tests match); every other language, en-GB included, gets its
 * own long date through Intl ("30. September 2026", "30 September 2026").
 */
export const sentenceDate = (tr: Translator, iso: string): string => textDate(tr, iso);

/** Whole sentences in a row: Chinese and Japanese set no space between sentences. */
export const sentences = (tr: Translator, parts: readonly string[]): string => parts.join(tr.lang === 'ja' || tr.lang === 'zh-Hans' ? '' : ' ');
