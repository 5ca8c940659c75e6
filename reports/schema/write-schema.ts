import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { portfolioReportSchemaText } from './portfolio-report';

/** Regenerates portfolio-report.schema.json from the zod model: `npx tsx reports/schema/write-schema.ts`. */
const target = fileURLToPath(new URL('./portfolio-report.schema.json', import.meta.url));
writeFileSync(target, portfolioReportSchemaText());
console.log(`wrote ${target}`);
