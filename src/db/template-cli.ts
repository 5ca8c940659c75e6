/**
 * `npm run build` ends here: the migrated empty embedded database later folders are copied from
 * (src/db/pglite-template.ts). Nothing is written when the copy for this PGlite is there.
 */
import { ensureTemplate } from './pglite-template';

ensureTemplate().then(
  (path) => process.stderr.write(`Migrated empty embedded database ready: ${path}\n`),
  (e: unknown) => {
    // Not fatal: without the copy, new database folders are made by initdb, only slower.
    process.stderr.write(`Note: the migrated empty embedded database was not written (${e instanceof Error ? e.message : String(e)}); new database folders will be made by initdb.\n`);
  },
);
