/**
 * The firm's words in a client document's language (issue 36): what the writers call instead of
 * reading brand.coverTitle, brand.footer, brand.disclosures and a manager's title directly.
 */
import type { Language } from '../i18n/languages';
import type { Brand, Manager } from './load-brand';
import { managerOf, paragraphs } from './load-brand';
import { pickText, type LocalText } from './local-text';

/** Who is told when a text is missing in the client's language: the portfolio it is for, and where to say it. */
export interface BrandTextWarning {
  portfolio: string;
  warn(line: string): void;
}

type BrandTexts = { cover_title: string | undefined; footer: string | undefined; disclosures: string[]; insurance_letter: string[] };
export type BrandTextField = keyof BrandTexts;

function inLanguage(text: LocalText | undefined, what: string, brand: Pick<Brand, 'language' | 'firmName'>, lang: Language, to: BrandTextWarning): string | undefined {
  if (!text) return undefined;
  const picked = pickText(text, lang, brand.language);
  if (picked.missing) to.warn(`Portfolio "${to.portfolio}": the brand's ${what} has no text in ${lang}; its ${brand.language} text (the firm's language) is used.`);
  return picked.text;
}

/** The brand's cover title, footer, disclosures or insurance letter (paragraphs) in `lang`, else the firm's language's with a warning naming the portfolio. */
export function brandText<F extends BrandTextField>(brand: Pick<Brand, 'language' | 'localised' | 'firmName'>, field: F, lang: Language, to: BrandTextWarning): BrandTexts[F] {
  const text = inLanguage(brand.localised[field], field, brand, lang, to);
  return (field === 'disclosures' || field === 'insurance_letter' ? paragraphs(text) : text) as BrandTexts[F];
}

/** A relationship manager's title in `lang`, else the firm's language's with a warning naming the portfolio; undefined when none is given. */
export function managerTitle(brand: Pick<Brand, 'language' | 'firmName'>, manager: Manager, lang: Language, to: BrandTextWarning): string | undefined {
  return inLanguage(manager.title, `title of ${manager.name}`, brand, lang, to);
}

/** A portfolio's relationship manager as its client document shows them: the title in `lang` (else the firm's language's, warned), when one is given. */
export type ManagerIn = Omit<Manager, 'title'> & { title?: string };

/** The portfolio's relationship manager with their title in `lang`; undefined when the brand names none. */
export function managerIn(brand: Pick<Brand, 'language' | 'firmName' | 'managers'> | undefined, portfolio: { name: string; id?: string | null }, lang: Language, to: BrandTextWarning): ManagerIn | undefined {
  const manager = managerOf(brand, portfolio);
  if (!brand || !manager) return undefined;
  const { title: _, ...rest } = manager;
  const title = managerTitle(brand, manager, lang, to);
  return title === undefined ? rest : { ...rest, title };
}

/**
 * The brand as one client document in `lang` reads it: each of the firm's texts and the
 * portfolio's manager's title in that language, a missing one the firm's language's with one
 * warning naming the portfolio, said here once (the run's log) rather than by each writer. The
 * texts are then one text for every language, so the writers read them without a warning again;
 * the managers are the portfolio's alone (all a client document shows, and less to carry).
 */
export function brandIn(brand: Brand, lang: Language, portfolio: { name: string; id?: string | null }, to: BrandTextWarning): Brand {
  const said: Partial<Record<'cover_title' | 'footer' | 'disclosures', string>> = {};
  for (const field of ['cover_title', 'footer', 'disclosures'] as const) said[field] = inLanguage(brand.localised[field], field, brand, lang, to);
  const localised: Brand['localised'] = {};
  for (const [field, text] of Object.entries(said)) if (text !== undefined) localised[field as keyof typeof said] = { all: text };
  const manager = managerIn(brand, portfolio, lang, to);
  const managers = new Map<string, Manager>();
  if (manager) {
    const { title, ...rest } = manager;
    for (const key of [portfolio.name, portfolio.id]) if (key) managers.set(key, title === undefined ? rest : { ...rest, title: { all: title } });
  }
  return { ...brand, localised, coverTitle: said.cover_title, footer: said.footer, disclosures: paragraphs(said.disclosures), managers };
}
