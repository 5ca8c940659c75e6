import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'svc-luxury-valuations';

let root: string | undefined;

/**
 * The folder of this package, from the source tree (tsx, vitest) or from its compiled form in
 * dist/ alike: files that ship beside the code (fonts, schemas, the add-in) are found from here,
 * not from a path relative to whichever module happens to ask.
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === PACKAGE_NAME) return (root = dir);
    } catch {
      // no package.json here: keep climbing
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package folder above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
