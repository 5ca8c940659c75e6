import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { glossaryMarkdown } from '../../src/i18n/glossary';

it('docs/glossary.md is the common catalogue, each term in every language', () => {
  const committed = readFileSync(path.resolve('docs/glossary.md'), 'utf8');
  expect(committed, 'docs/glossary.md is stale: regenerate with `npx tsx src/i18n/write-glossary.ts`').toBe(glossaryMarkdown());
  expect(committed).toContain('| `common.twr` | Time-weighted return | Time-weighted return | Zeitgewichtete Rendite | Zeitgewichtete Rendite | Rendement pondéré dans le temps |');
});
