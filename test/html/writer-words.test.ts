/**
 * No English written into the web page's writers (issue 38): every word a reader sees comes from
 * the catalogues. Each string literal and template part of reports/writers/html*.ts and
 * dashboard-html.ts, its markup taken out, must not read as prose (two words or more), unless
 * listed here with why no reader sees it. Modelled on test/addin/english-literals.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const DIR = path.join(process.cwd(), 'reports/writers');
const PROSE = /[A-Za-z]{2,}[,;:()'’]*\s+[(["“]?[A-Za-z]{2,}/;

/** Files that are not words for a reader at all. */
const NOT_WORDS: Record<string, string> = {
  'html-styles.ts': 'the style sheet (CSS)',
  'html-script.ts': 'the script (JavaScript)',
};
/** Literal texts allowed per file, with the reason. */
const ALLOWED: Record<string, { texts: string[]; why: string }[]> = {
  'html-fonts.ts': [{ texts: ['Report Sans', 'Report Serif', 'Report Script'], why: "the style sheet's font family names, never shown" }],
  'html-table.ts': [{ texts: ['cards wide'], why: "a table's class names, never shown" }],
  'html-page.ts': [{ texts: ["default-src 'none'", 'img-src data:', 'font-src data:', "base-uri 'none'", "form-action 'none'"], why: 'the Content-Security-Policy' }],
};

const files = () => readdirSync(DIR).filter((f) => /^(html.*|dashboard-html)\.ts$/.test(f) && !(f in NOT_WORDS)).sort();

/** The prose of one file's literals, markup and entities removed; imports and literal types left out. */
function proseLiterals(source: string, name = 'x.ts'): string[] {
  const sf = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isLiteralTypeNode(n)) return;
    const parts: string[] = [];
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) parts.push(n.text);
    else if (ts.isTemplateExpression(n)) parts.push(n.head.text, ...n.templateSpans.map((s) => s.literal.text));
    for (const part of parts) {
      const text = part.replace(/<[!/]?[a-zA-Z][^>]*>?|^[^<]*>|&[a-z#0-9]+;/g, ' ');
      if (PROSE.test(text)) found.push(part);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe("no English in the web page's writers", () => {
  it('every prose literal is allowed with a reason (the words come from the catalogues)', () => {
    expect(files().length).toBeGreaterThan(10);
    const left: string[] = [];
    for (const file of files()) {
      const allowed = new Set((ALLOWED[file] ?? []).flatMap((a) => a.texts));
      for (const text of proseLiterals(readFileSync(path.join(DIR, file), 'utf8'), file)) if (!allowed.has(text)) left.push(`${file}: ${JSON.stringify(text)}`);
    }
    expect(left).toEqual([]);
  });

  it('finds a sentence written into markup (the check itself works)', () => {
    expect(proseLiterals('const a = html`<p class="muted">Nothing was sold.</p>`; const b = html`<td data-label="${x}">${y}</td>`;')).toEqual(['<p class="muted">Nothing was sold.</p>']);
  });
});
