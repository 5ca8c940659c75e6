/**
 * The manifest in every language the add-in speaks (issue 36): `<Override Locale="…" Value="…"/>`
 * on the add-in's description, the ribbon's and Get Started texts, and the functions' metadata
 * URL (each display language gets its functions.<lang>.json: localised-metadata.ts). The English
 * defaults stay in manifest.xml; the build checks they are the catalogue's English, so the two
 * cannot drift apart.
 */
import { translator, type Language, type MessageKey } from '../../src/i18n';
import { escapeXmlAttribute } from './manifest';
import { METADATA_LOCALES, metadataFile } from './localised-metadata';

/** The manifest's texts: the element (or bt:String id) and its catalogue message. */
const TEXTS: readonly { open: RegExp; key: MessageKey; tag: 'Description' | 'bt:String' }[] = [
  { open: /<Description DefaultValue="([^"]*)"\/>/, key: 'addin.manifest_description', tag: 'Description' },
  { open: /<bt:String id="GetStarted\.Title" DefaultValue="([^"]*)"\/>/, key: 'addin.getstarted_title', tag: 'bt:String' },
  { open: /<bt:String id="Group\.Label" DefaultValue="([^"]*)"\/>/, key: 'addin.group_label', tag: 'bt:String' },
  { open: /<bt:String id="TaskpaneButton\.Label" DefaultValue="([^"]*)"\/>/, key: 'addin.button_label', tag: 'bt:String' },
  { open: /<bt:String id="GetStarted\.Description" DefaultValue="([^"]*)"\/>/, key: 'addin.getstarted_description', tag: 'bt:String' },
  { open: /<bt:String id="TaskpaneButton\.Tooltip" DefaultValue="([^"]*)"\/>/, key: 'addin.button_tooltip', tag: 'bt:String' },
];

const unescapeXml = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Every (Office culture, language) pair the manifest overrides, in a stable order. */
function cultures(): [string, Language][] {
  return Object.entries(METADATA_LOCALES).flatMap(([lang, locales]) => (locales ?? []).map((c) => [c, lang as Language] as [string, Language]));
}

/** Puts `overrides` inside the element `open` matched (its self-closing form opened up). */
function withOverrides(xml: string, match: RegExpExecArray, tag: string, prefix: string, overrides: [string, string][]): string {
  const element = match[0];
  const opened = element.replace(/\/>$/, '>');
  const inner = overrides.map(([locale, value]) => `\n          <${prefix}Override Locale="${locale}" Value="${escapeXmlAttribute(value)}"/>`).join('');
  return xml.replace(element, `${opened}${inner}\n        </${tag}>`);
}

/** The manifest with every language's overrides; throws when an English default is not the catalogue's English. */
export function localiseManifest(xml: string, origin: string): string {
  let out = xml;
  const en = translator('en');
  for (const { open, key, tag } of TEXTS) {
    const match = open.exec(out);
    if (!match) throw new Error(`manifest.xml lost the element for ${key} (${open.source})`);
    if (unescapeXml(match[1]!) !== en.t(key)) throw new Error(`manifest.xml's English for ${key} differs from src/i18n/messages/addin/en.json: change both together.`);
    out = withOverrides(out, match, tag, tag === 'bt:String' ? 'bt:' : '', cultures().map(([c, lang]) => [c, translator(lang).t(key)]));
  }
  const metadataUrl = new RegExp(`<bt:Url id="Functions\\.Metadata\\.Url" DefaultValue="${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/functions\\.json"/>`).exec(out);
  if (!metadataUrl) throw new Error('manifest.xml has no Functions.Metadata.Url at the origin');
  return withOverrides(out, metadataUrl, 'bt:Url', 'bt:', cultures().map(([c, lang]) => [c, `${origin}/${metadataFile(lang)}`]));
}
