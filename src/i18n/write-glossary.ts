import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { glossaryMarkdown } from './glossary';

/** Regenerates docs/glossary.md from the common catalogue: `npx tsx src/i18n/write-glossary.ts`. */
const target = fileURLToPath(new URL('../../docs/glossary.md', import.meta.url));
writeFileSync(target, glossaryMarkdown());
console.log(`wrote ${target}`);
