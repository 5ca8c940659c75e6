/** The firm's words per language (issue 36): the brand file's texts and the managers' titles, checked, and read in a client's language. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { BrandError, brandIn, brandText, loadBrand, managerOf, managerTitle } from '../../src/brand';
import { makeReportData } from '../../fixtures/report-data';
import { writePdf } from '../../reports/writers/pdf';
import { writeXlsx } from '../../reports/writers/xlsx';
import { tempDir } from '../reports/helpers';

let dir: string;
let n = 0;
function brandFile(brand: Record<string, unknown>, managers?: string[]): string {
  const file = join(dir, `brand-${++n}.json`);
  if (managers) writeFileSync(join(dir, `managers-${n}.csv`), `${managers.join('\n')}\n`);
  writeFileSync(file, JSON.stringify({ firm_name: 'Ashgrove & Vale', ...(managers ? { managers: `managers-${n}.csv` } : {}), ...brand }));
  return file;
}
const refusal = (brand: Record<string, unknown>, managers?: string[]) => {
  try {
    loadBrand(brandFile(brand, managers));
  } catch (e) {
    expect(e).toBeInstanceOf(BrandError);
    return (e as Error).message;
  }
  throw new Error('the brand file was accepted');
};
const warnings: string[] = [];
const to = (portfolio: string) => ({ portfolio, warn: (line: string) => warnings.push(line) });

beforeAll(() => {
  dir = tempDir('svc-brand-i18n-');
});

describe("the firm's words per language", () => {
  const brand = () =>
    loadBrand(
      brandFile({
        language: 'DE',
        cover_title: { de: 'Vermögensbericht', EN: 'Wealth report', 'fr-ch': 'Rapport patrimonial' },
        footer: 'Ashgrove & Vale AG · Zürich',
        disclosures: { de: 'Erster Absatz.\n\nZweiter\nAbsatz.', en: 'First paragraph.\n\nSecond paragraph.' },
      }),
    );

  it("gives each text in the client's language, or the language it is a variant of, without a warning", () => {
    warnings.length = 0;
    const b = brand();
    expect(b.language).toBe('de');
    expect(brandText(b, 'cover_title', 'en', to('Okafor'))).toBe('Wealth report');
    expect(brandText(b, 'cover_title', 'de-CH', to('Okafor'))).toBe('Vermögensbericht');
    expect(brandText(b, 'cover_title', 'en-GB', to('Okafor'))).toBe('Wealth report');
    expect(brandText(b, 'cover_title', 'fr-CH', to('Okafor'))).toBe('Rapport patrimonial');
    expect(brandText(b, 'disclosures', 'de', to('Okafor'))).toEqual(['Erster Absatz.', 'Zweiter Absatz.']);
    // One text is every language's.
    expect(brandText(b, 'footer', 'ja', to('Okafor'))).toBe('Ashgrove & Vale AG · Zürich');
    expect(warnings).toEqual([]);
    // The fields the writers read today are the firm's language's.
    expect([b.coverTitle, b.footer, b.disclosures]).toEqual(['Vermögensbericht', 'Ashgrove & Vale AG · Zürich', ['Erster Absatz.', 'Zweiter Absatz.']]);
  });

  it("falls back to the firm's language with a warning naming the portfolio", () => {
    warnings.length = 0;
    const b = brand();
    expect(brandText(b, 'cover_title', 'ja', to('Tanaka Family'))).toBe('Vermögensbericht');
    expect(brandText(b, 'disclosures', 'fr', to('Dubois'))).toEqual(['Erster Absatz.', 'Zweiter Absatz.']);
    expect(warnings).toEqual([
      `Portfolio "Tanaka Family": the brand's cover_title has no text in ja; its de text (the firm's language) is used.`,
      `Portfolio "Dubois": the brand's disclosures has no text in fr; its de text (the firm's language) is used.`,
    ]);
  });

  it('refuses a key that is no supported language, saying which it likely meant', () => {
    expect(refusal({ footer: { en: 'x', 'de-DE': 'y' } })).toMatch(/footer: "de-DE" is not a supported language \(did you mean de\?\); the languages are en, en-GB, de, de-CH, fr, fr-CH, it, es, zh-Hans, ja, ar$/);
    expect(refusal({ footer: { en: 'x', 'zh-CN': 'y' } })).toMatch(/"zh-CN" is not a supported language \(did you mean zh-Hans\?\)/);
    expect(refusal({ footer: { en: 'x', 'zh-hnas': 'y' } })).toMatch(/"zh-hnas" is not a supported language \(did you mean zh-Hans\?\)/);
    expect(refusal({ footer: { en: 'x', pt: 'y' } })).toMatch(/footer: "pt" is not a supported language; the languages are/);
    expect(refusal({ footer: { en: 'x', de: 'y', DE: 'z' } })).toMatch(/footer: de is given twice/);
    expect(refusal({ language: 'pt', footer: 'x' })).toMatch(/language: "pt" is not a supported language; use one of en, /);
  });

  it("refuses texts per language without one in the firm's language, which every other client falls back on", () => {
    expect(refusal({ cover_title: { de: 'Bericht' } })).toMatch(/cover_title: gives no text in en, the firm's language/);
    expect(refusal({ language: 'fr', disclosures: { en: 'x', de: 'y' } })).toMatch(/disclosures: gives no text in fr, the firm's language/);
  });

  it("reads the managers' titles, one or per language, and refuses a title column in no supported language", () => {
    warnings.length = 0;
    const b = loadBrand(
      brandFile({}, ['portfolio,name,email,phone,title,title_de,title (fr-ch)', 'Okafor,Eleanor Whitcombe,e.w@example.com,+44 1,Relationship manager,Kundenberaterin,Conseillère clientèle', 'Lindqvist,Samuel Achterberg,,,Senior adviser,,']),
    );
    const eleanor = managerOf(b, { name: 'Okafor' })!;
    expect(managerTitle(b, eleanor, 'de-CH', to('Okafor'))).toBe('Kundenberaterin');
    expect(managerTitle(b, eleanor, 'fr-CH', to('Okafor'))).toBe('Conseillère clientèle');
    expect(warnings).toEqual([]);
    expect(managerTitle(b, managerOf(b, { name: 'Lindqvist' })!, 'de', to('Lindqvist'))).toBe('Senior adviser');
    expect(warnings).toEqual([`Portfolio "Lindqvist": the brand's title of Samuel Achterberg has no text in de; its en text (the firm's language) is used.`]);
    // Without per-language columns, "title" is every language's.
    const one = loadBrand(brandFile({}, ['portfolio,name,email,phone,title', 'Okafor,Eleanor Whitcombe,,,Relationship manager']));
    expect(managerTitle(one, managerOf(one, { name: 'Okafor' })!, 'ja', to('Okafor'))).toBe('Relationship manager');
    expect(refusal({}, ['portfolio,name,email,phone,title,title_pt', 'Okafor,E,,,Adviser,Consultor'])).toMatch(/managers: \S+ column 6 is a title column in no supported language; title columns are title or title_<language>/);
    expect(refusal({}, ['portfolio,name,email,phone,title,title_de-de', 'Okafor,E,,,Adviser,Berater'])).toMatch(/column 6 is a title column in no supported language \(did you mean de\?\)/);
    expect(refusal({}, ['portfolio,name,email,phone,title_de', 'Okafor,E,,,Berater'])).toMatch(/row 2: gives a title in de but none in en, the firm's language/);
  });
});

describe("a client document's brand: the firm's words decided once in its language", () => {
  const load = () =>
    loadBrand(
      brandFile(
        { cover_title: { en: 'Wealth report', de: 'Vermögensbericht' }, footer: { en: 'Ashgrove & Vale', fr: 'Ashgrove & Vale SA' }, disclosures: 'One text.' },
        ['portfolio,name,email,phone,title,title_de', 'Meier,Anna Keller,a.k@example.com,,Relationship manager,Kundenberaterin', 'Other,Jo Smith,,,Adviser,Berater'],
      ),
    );

  it('warns once per missing text, naming the portfolio; the writers then read it without a warning', () => {
    warnings.length = 0;
    const b = brandIn(load(), 'de', { name: 'Meier', id: 'PF-7' }, to('Meier'));
    expect(warnings).toEqual([`Portfolio "Meier": the brand's footer has no text in de; its en text (the firm's language) is used.`]);
    expect([b.coverTitle, b.footer, b.disclosures]).toEqual(['Vermögensbericht', 'Ashgrove & Vale', ['One text.']]);
    warnings.length = 0;
    expect(brandText(b, 'cover_title', 'de', to('Meier'))).toBe('Vermögensbericht');
    // The portfolio's manager alone, by name and by id, with the title in the language.
    expect([...b.managers.keys()]).toEqual(['Meier', 'PF-7']);
    expect(managerTitle(b, managerOf(b, { id: 'PF-7' })!, 'de', to('Meier'))).toBe('Kundenberaterin');
    expect(warnings).toEqual([]);
  });

  it("draws the manager's title in the client's language on the PDF cover and the workbook's Summary", async () => {
    const base = makeReportData({ holdings: 2 });
    const data = { ...base, cover: { ...base.cover, portfolio_name: 'Meier' }, language: 'de' as const, brand: brandIn(load(), 'de', { name: 'Meier' }, to('Meier')) };
    const pdf = join(dir, 'meier.pdf');
    const xlsx = join(dir, 'meier.xlsx');
    await writePdf(data, pdf);
    await writeXlsx(data, xlsx);
    expect(execFileSync('pdftotext', ['-enc', 'UTF-8', '-f', '1', '-l', '1', pdf, '-'], { encoding: 'utf8' })).toMatch(/KUNDENBERATERIN\s+Anna Keller/);
    const cells = execFileSync('/usr/bin/python3', ['-c', 'import sys, openpyxl\nfor r in openpyxl.load_workbook(sys.argv[1]).worksheets[0].iter_rows(values_only=True): print(r[0], "|", r[1])', xlsx], { encoding: 'utf8' });
    expect(cells).toMatch(/^Kundenberaterin \| Anna Keller/m);
  }, 120_000);
});

