/**
 * A message catalogue area: its English messages (the source, whose keys are the area's typed
 * keys) and each language's translations, any of which may lack a message (it falls back along
 * the language's chain, languages.ts).
 */
import type { Language } from './languages';

export type Messages = Readonly<Record<string, string>>;

export interface Area<E extends Messages> {
  en: E;
  translations: Partial<Record<Exclude<Language, 'en'>, Partial<Record<keyof E, string>>>>;
}

export function area<E extends Messages>(en: E, translations: Area<E>['translations']): Area<E> {
  return { en, translations };
}
