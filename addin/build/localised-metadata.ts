/**
 * Excel's localised custom-function metadata (issue 36): Excel reads one functions JSON per
 * display language, chosen by the manifest's `<Override Locale="de-DE" Value="…/functions.de.json"/>`
 * on the metadata URL (Microsoft: "Localize custom functions"). Each file is functions.json with
 * the descriptions and argument help from the `addin` catalogue; ids and names (SVC.*) stay.
 */
import addinEnglish from '../../src/i18n/messages/addin/en.json';
import { translator, type Language, type MessageKey, type Translator } from '../../src/i18n';

/** The languages a functions.<lang>.json is written for, and the Office culture names that get it. */
export const METADATA_LOCALES: Readonly<Partial<Record<Language, readonly string[]>>> = {
  de: ['de-DE', 'de-AT', 'de-LU', 'de-LI'],
  'de-CH': ['de-CH'],
  fr: ['fr-FR', 'fr-CH', 'fr-BE', 'fr-LU', 'fr-MC', 'fr-CA'],
  it: ['it-IT', 'it-CH'],
  es: ['es-ES', 'es-MX', 'es-US'],
  'zh-Hans': ['zh-CN', 'zh-SG'],
  ja: ['ja-JP'],
  ar: ['ar-SA', 'ar-AE', 'ar-QA', 'ar-KW', 'ar-BH', 'ar-EG'],
};

/** Where a language's metadata is served beside functions.json. */
export const metadataFile = (lang: Language): string => `functions.${lang}.json`;

interface FunctionMeta {
  id: string;
  description?: string;
  parameters: { name: string; description?: string }[];
  [other: string]: unknown;
}
interface MetadataJson {
  functions: FunctionMeta[];
  [other: string]: unknown;
}

const ENGLISH = addinEnglish as Record<string, string>;

/** The catalogue key of a function's description, and of an argument's help: the function's own, else the one every function shares. */
export function descriptionKey(id: string): MessageKey {
  const key = `fn.${id}`;
  if (!(key in ENGLISH)) throw new Error(`SVC.${id} has no description in src/i18n/messages/addin/en.json ("${key}"): add it and its translations.`);
  return `addin.${key}` as MessageKey;
}
export function parameterKey(id: string, parameter: string): MessageKey {
  for (const key of [`fn.${id}.${parameter}`, `param.${parameter}`]) if (key in ENGLISH) return `addin.${key}` as MessageKey;
  throw new Error(`SVC.${id}'s argument ${parameter} has no help in src/i18n/messages/addin/en.json ("param.${parameter}" or "fn.${id}.${parameter}").`);
}

/** The metadata in `tr`'s language: every description and argument help from the catalogue, everything else as generated. */
export function localisedMetadata(metadata: MetadataJson, tr: Translator): MetadataJson {
  return {
    ...metadata,
    functions: metadata.functions.map((f) => ({
      ...f,
      description: tr.t(descriptionKey(f.id)),
      parameters: f.parameters.map((p) => ({ ...p, description: tr.t(parameterKey(f.id, p.name)) })),
    })),
  };
}

/** Every localised metadata file of a build: name → JSON text. */
export function localisedMetadataFiles(metadata: MetadataJson, languages: readonly Language[] = Object.keys(METADATA_LOCALES) as Language[]): Map<string, string> {
  return new Map(languages.map((lang) => [metadataFile(lang), JSON.stringify(localisedMetadata(metadata, translator(lang)), null, 2)]));
}
