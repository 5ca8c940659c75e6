import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import addinEnglish from '../../src/i18n/messages/addin/en.json';
import { translator, type MessageKey } from '../../src/i18n';
import { generateMetadata } from '../../addin/build/build';
import { localisedMetadata, descriptionKey, parameterKey } from '../../addin/build/localised-metadata';
import { localiseManifest } from '../../addin/build/manifest-locales';
import { DEFAULT_ORIGIN } from '../../addin/build/manifest';
import { languageOfDisplay } from '../../addin/src/shared/display-language';
import { TEXT_ATTRIBUTE } from '../../addin/src/taskpane/pane-text';

/**
 * The add-in's words without a browser (issue 36): Excel's display language → the catalogue
 * language, the functions' metadata in the pseudo-locale (every description and argument help
 * from the catalogue: nothing left in English), the catalogue's English equal to the JSDoc the
 * English functions.json is generated from, every key the pane's page names, and the manifest's
 * English defaults held to the catalogue.
 */
const unwrap = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

describe('display language', () => {
  it.each([
    ['de-DE', 'de'], ['de-de', 'de'], ['de-AT', 'de'], ['de-CH', 'de-CH'], ['fr-FR', 'fr'], ['fr-CH', 'fr-CH'], ['it-IT', 'it'], ['es-ES', 'es'],
    ['ja-JP', 'ja'], ['zh-CN', 'zh-Hans'], ['zh-cn', 'zh-Hans'], ['zh-Hans', 'zh-Hans'], ['ar-SA', 'ar'], ['ar-ae', 'ar'], ['en-GB', 'en-GB'],
    ['en-US', 'en'], ['pt-BR', 'en'], ['zh-TW', 'en'], ['', 'en'], [undefined, 'en'], ['x', 'en'],
  ])('%s → %s', (tag, lang) => expect(languageOfDisplay(tag)).toBe(lang));
});

describe("the functions' localised metadata", () => {
  it("English: the catalogue says exactly what the functions' JSDoc says (so every translation tracks the English functions.json)", async () => {
    const { json } = await generateMetadata();
    const functions = (JSON.parse(json) as { functions: { id: string; description?: string; parameters: { name: string; description?: string }[] }[] }).functions;
    const en = translator('en');
    for (const f of functions) {
      expect(en.t(descriptionKey(f.id)), f.id).toBe(unwrap(f.description));
      for (const p of f.parameters) expect(en.t(parameterKey(f.id, p.name)), `${f.id}(${p.name})`).toBe(unwrap(p.description));
    }
  }, 60_000);

  it('en-XA: every description and every argument help is accented (none hard-coded), ids, names and types untouched', async () => {
    const metadata = JSON.parse((await generateMetadata()).json) as Parameters<typeof localisedMetadata>[0];
    const pseudo = localisedMetadata(metadata, translator('en-XA'));
    expect(pseudo.functions.length).toBe(metadata.functions.length);
    pseudo.functions.forEach((f, i) => {
      expect(f.description, f.id).not.toMatch(/[A-Za-z]/);
      for (const p of f.parameters) expect(p.description, `${f.id}(${p.name})`).not.toMatch(/[A-Za-z]/);
      expect({ ...f, description: undefined, parameters: f.parameters.map((p) => ({ ...p, description: undefined })) }).toEqual({
        ...metadata.functions[i],
        description: undefined,
        parameters: metadata.functions[i]!.parameters.map((p) => ({ ...p, description: undefined })),
      });
    });
  }, 60_000);

  it('a function or an argument without catalogue text fails the build, naming it', () => {
    expect(() => descriptionKey('NEWFUNCTION')).toThrow(/SVC\.NEWFUNCTION.*fn\.NEWFUNCTION/);
    expect(() => parameterKey('MIDVALUE', 'colour')).toThrow(/colour/);
  });
});

describe('the pane page and the manifest', () => {
  it('every key taskpane.html names is in the English catalogue', async () => {
    const html = await readFile('addin/src/taskpane/taskpane.html', 'utf8');
    const keys = [...html.matchAll(new RegExp(`${TEXT_ATTRIBUTE}="([^"]+)"`, 'g'))].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(30);
    for (const key of keys) expect(() => translator('en').t(key as MessageKey), key).not.toThrow();
    for (const key of keys.filter((k) => k.startsWith('addin.'))) expect(key.slice('addin.'.length) in addinEnglish, key).toBe(true);
  });

  it("the manifest's English defaults are the catalogue's; one that drifts fails the build", async () => {
    const xml = await readFile('manifest.xml', 'utf8');
    const localised = localiseManifest(xml, DEFAULT_ORIGIN);
    expect(localised).toContain(`<bt:Override Locale="de-DE" Value="${DEFAULT_ORIGIN}/functions.de.json"/>`);
    expect(localised).toContain(`<bt:Override Locale="ja-JP" Value="${translator('ja').t('addin.button_label')}"/>`);
    const drifted = xml.replace('DefaultValue="Valuations"', 'DefaultValue="Valuation pane"');
    expect(() => localiseManifest(drifted, DEFAULT_ORIGIN)).toThrow(/addin\.button_label/);
  });
});
