import type { IncomingMessage } from 'node:http';
import { DEFAULT_LANGUAGE, translator, type Language, type MessageKey, type MessageValues, type Translator } from '../../src/i18n';
import { languageOfDisplay } from '../src/shared/display-language';

/**
 * The host's own sentences in the language the asking page states (issue 36; docs/decisions.md,
 * "The add-in host's sentences"). The task pane sends `Accept-Language: <Excel's display language>`
 * on every request to the host (the browser's own header would name the browser's language,
 * which need not be Excel's); the host answers its sentences in that language from the `addin`
 * catalogue, keeping `error.type` as the stable machine code. A caller stating no language we
 * speak (a script, curl) gets English.
 */

/** A host sentence not yet put into words: its catalogue message and values. */
export interface HostText {
  key: MessageKey;
  values?: MessageValues;
}

export const hostText = (key: MessageKey, values?: MessageValues): HostText => ({ key, values });

/** The first language of an Accept-Language header (by quality) that the add-in speaks; English otherwise. */
export function acceptedLanguage(header: string | string[] | undefined): Language {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const ranked = text
    .split(',')
    .slice(0, 20) // a header is a short list; a long one is not read further
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(/^\s*q=([\d.]+)\s*$/i.exec(params.find((p) => /^\s*q=/i.test(p)) ?? '')?.[1] ?? 1);
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((r) => r.q > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(r.tag))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const lang = languageOfDisplay(tag);
    // languageOfDisplay answers English for what it does not speak: only an English tag means English here.
    if (lang !== DEFAULT_LANGUAGE || tag.toLowerCase().split('-')[0] === 'en') return lang;
  }
  return DEFAULT_LANGUAGE;
}

/** The translator of the request's stated language. */
export function requestTranslator(req: Pick<IncomingMessage, 'headers'> | undefined): Translator {
  return translator(acceptedLanguage(req?.headers['accept-language']));
}

/** A sentence for the request: a HostText in its language, a plain string (the service's own words, a reader's reason) as it is. */
export function sayTo(req: Pick<IncomingMessage, 'headers'> | undefined, text: string | HostText): string {
  return typeof text === 'string' ? text : requestTranslator(req).t(text.key, text.values);
}

/** The English of a host sentence: what logs and `Error.message` keep. */
export const inEnglish = (text: string | HostText): string => (typeof text === 'string' ? text : translator(DEFAULT_LANGUAGE).t(text.key, text.values));
