/**
 * The help page in every language the add-in speaks (issue 36), from the functions' metadata and
 * the `addin` catalogue: one static page, a section per language, the one the URL's fragment
 * names shown (help.html#de; the pane links to its own language's), English otherwise. CSS
 * (:target) chooses: no script, so the page stays as strict as the host's policy makes it.
 */
import { LANGUAGES, translator, type Language } from '../../src/i18n';
import { descriptionKey } from './localised-metadata';

interface FunctionMeta {
  id: string;
  name?: string;
  parameters: { name: string; optional?: boolean }[];
}

/** Where the generated sections go in the page (addin/src/taskpane/help.html). */
export const HELP_MARKER = '<!-- SVC:FUNCTIONS -->';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A function as a formula calls it: =SVC.MIDVALUE(asset, [currency]). Names stay as typed, in every language. */
function signature(f: FunctionMeta): string {
  const args = f.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(', ');
  return `=SVC.${f.name ?? f.id}(${args})`;
}

function section(lang: Language, functions: readonly FunctionMeta[]): string {
  const tr = translator(lang);
  const rows = functions.map((f) => `<dt>${escapeHtml(signature(f))}</dt><dd>${escapeHtml(tr.t(descriptionKey(f.id)))}</dd>`);
  return [
    `<section class="help-language" id="${lang}" lang="${lang}" dir="${tr.dir}">`,
    `<header><img src="assets/icon-32.png" alt="" width="32" height="32"><h1>${escapeHtml(tr.t('addin.help_title'))}</h1></header>`,
    `<p>${escapeHtml(tr.t('addin.help_intro'))}</p>`,
    `<dl>`,
    ...rows,
    `</dl>`,
    `</section>`,
  ].join('\n');
}

/** The page with a section per language in place of the marker; English first (shown when the fragment names none). */
export function helpPage(template: string, functions: readonly FunctionMeta[]): string {
  if (!template.includes(HELP_MARKER)) throw new Error(`help.html lacks ${HELP_MARKER}`);
  const languages = ['en', ...LANGUAGES.filter((l) => l !== 'en')] as Language[];
  return template.replace(HELP_MARKER, languages.map((l) => section(l, functions)).join('\n'));
}
