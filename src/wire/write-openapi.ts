import { writeFileSync } from 'node:fs';
import { openApiJson } from './openapi';

/** `npx tsx src/wire/write-openapi.ts [file]`: writes the OpenAPI document (default docs/openapi.json). */
const out = process.argv[2] ?? 'docs/openapi.json';
writeFileSync(out, openApiJson());
console.log(`wrote ${out}`);
