import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * No new English in the add-in's browser code (issue 36): every string literal in addin/src that
 * reads as prose (two words or more) is either a catalogue message's key use (never a literal) or
 * listed here with why it is not shown to a user in Excel's language. A sentence added to the pane
 * as a literal fails this test until it goes to src/i18n/messages/addin (every language) or is
 * listed with a reason. The pane's page: every text of taskpane.html is marked data-i18n or listed.
 */
const ROOT = path.join(process.cwd(), 'addin/src');
/** Two words of letters apart by white space: prose, not an id, a header name or a format code. */
const PROSE = /[A-Za-z]{2,}[,;:()'’]*\s+[(["“]?[A-Za-z]{2,}/;

/** Literal texts (a template's parts joined by {}) allowed per file, with the reason. */
const ALLOWED: Record<string, { texts: string[]; why: string }[]> = {
  'functions/asset-card.ts': [
    {
      texts: ['Stale since', 'Asset id', 'As of', 'Valid until', 'Data points', 'Market validated', 'yyyy-mm-dd hh:mm "UTC"'],
      why: "a card's property names are the entity's field names formulas use (=A2.[As of]), like argument names: English in every language (docs/decisions.md); a format code",
    },
  ],
  'functions/cover-card.ts': [{ texts: ['Asset id'], why: "a card's property names, as on SVC.ASSET's card (asset-card.ts)" }],
  'taskpane/freeze-plan.ts': [
    { texts: ['Asset id', 'As of'], why: "a card's property names, read back" },
    { texts: ['SVC sources'], why: 'the sources sheet is found by this name on restore, whoever froze it; every translation quotes it as it is' },
    { texts: ['original formula', 'asset id', 'as of'], why: "SOURCES_HEADER, the English header; the sheet is written with the catalogue's (sources_*)" },
  ],
  'taskpane/freeze-xml.ts': [
    {
      texts: ['<?xml version="1.0" encoding="UTF-8"?>', '<frozen xmlns="{}" version="1" frozenAt="{}">', '  <cell sheet="{}" row="{}" column="{}" rows="{}" columns="{}" {} currency="{}" assetId="{}" asOf="{}">'],
      why: 'the custom XML part, not text',
    },
    { texts: ['unknown entity {}', 'not well-formed at character {}', '<{}> is not closed'], why: "the XML reader's technical detail, quoted inside the catalogue's frozen_unreadable sentence" },
  ],
  'service-worker/worker.ts': [{ texts: ['{}: the host answered {}', '{} is not version {}\'s', '<meta name="{}" content="{}">'], why: "the service worker's own failures: never shown, it keeps no page instead" }],
  'shared/safe-storage.ts': [{ texts: ['a written item did not read back'], why: "the browser's refusal detail, quoted inside the catalogue's storage_refused sentence" }],
  'shared/answer-check.ts': [{ texts: ['score breakdown', 'exit analysis'], why: 'names of answers in the check of a malformed service answer (a version mismatch), for support' }],
  'dispatcher/coalescing-queue.ts': [{ texts: ['The service answered {} items for {} requested.'], why: 'a malformed service answer (a contract breach), for support' }],
  'dispatcher/outcome.ts': [{ texts: ['The calculation was cancelled.'], why: "CancelledError's own message: cells say the catalogue's err_cancelled (excel-errors.ts)" }],
  'shared/holdings.ts': [{ texts: ['The header row', 'give the column another name, or leave it out of the table.'], why: "a header a slip away from a column, in English: src/holdings/unknown-columns.ts's own sentence, as svc-report says it; every other language says the catalogue's header_close_miss" }],
};

function sources(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? sources(p) : /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
    });
}

/** The prose literals of one file: strings and templates (parts joined by {}), not module names, literal types or console lines. */
function proseLiterals(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isLiteralTypeNode(n)) return;
    if (ts.isCallExpression(n) && /^console\./.test(n.expression.getText(sf))) return;
    let text: string | undefined;
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) text = n.text;
    else if (ts.isTemplateExpression(n)) text = [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join('{}');
    if (text !== undefined && PROSE.test(text)) found.push(text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('no English left in the add-in’s browser code', () => {
  it('every prose literal in addin/src is allowed with a reason (user-visible words come from the addin catalogue)', () => {
    const left: string[] = [];
    for (const file of sources(ROOT)) {
      const rel = path.relative(ROOT, file).split(path.sep).join('/');
      const allowed = new Set((ALLOWED[rel] ?? []).flatMap((a) => a.texts));
      for (const text of proseLiterals(file)) if (!allowed.has(text)) left.push(`${rel}: ${JSON.stringify(text)}`);
    }
    expect(left).toEqual([]);
  });

  it('the allow-list names only what is still there (a literal moved to the catalogue leaves it)', () => {
    const stale: string[] = [];
    for (const [rel, entries] of Object.entries(ALLOWED)) {
      const present = new Set(proseLiterals(path.join(ROOT, rel)));
      for (const text of entries.flatMap((e) => e.texts)) if (!present.has(text)) stale.push(`${rel}: ${JSON.stringify(text)}`);
    }
    expect(stale).toEqual([]);
  });

  it('finds a sentence added as a literal (the check itself works)', () => {
    const probe = path.join(ROOT, 'taskpane/taskpane.ts');
    expect(proseLiterals(probe)).toEqual([]);
    const sf = ts.createSourceFile('x.ts', "say('Refresh finished.'); const id = 'status-service';", ts.ScriptTarget.Latest, true);
    const texts: string[] = [];
    const walk = (n: ts.Node): void => {
      if (ts.isStringLiteral(n) && PROSE.test(n.text)) texts.push(n.text);
      ts.forEachChild(n, walk);
    };
    walk(sf);
    expect(texts).toEqual(['Refresh finished.']);
  });

  it("the pane's page: every text is marked data-i18n, or a proper name, a format or a currency code", () => {
    const html = readFileSync(path.join(ROOT, 'taskpane/taskpane.html'), 'utf8')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '');
    const unmarked: string[] = [];
    // The text right after an opening tag (unless that tag is marked) and after a closing tag.
    for (const m of html.matchAll(/<(\/?)(\w+)([^>]*)>([^<]*)/g)) {
      const text = m[4]!.trim();
      if (!/[A-Za-z]/.test(text)) continue;
      if (m[1] === '' && /\bdata-i18n=/.test(m[3]!)) continue;
      unmarked.push(text);
    }
    expect(unmarked.filter((t) => !['SVC Luxury Valuations', 'USD', 'EUR', 'GBP', 'Excel (xlsx)', 'PDF', 'CSV', 'JSON'].includes(t))).toEqual([]);
  });
});
