/** Brand files for the tests, written into a temporary folder beside copies of the example's logo. */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../reports/helpers';

export const EXAMPLE_BRAND = join(ROOT, 'examples/brand/brand.json');
export const FIRM = 'Ashgrove & Vale Private Wealth';

/** Writes `brand` as brand.json in `dir`, with logo.png and managers.csv from examples/brand beside it; returns its path. */
export function writeBrand(dir: string, brand: Record<string, unknown>, name = 'brand.json'): string {
  for (const f of ['logo.png', 'logo.svg', 'managers.csv']) copyFileSync(join(ROOT, 'examples/brand', f), join(dir, f));
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(brand, null, 2));
  return file;
}

/**
 * A copy of a house font whose OS/2 fsType says "Restricted License embedding" (0x0002, or the
 * flags given): the table directory is walked to the OS/2 table, its fsType (offset 8)
 * patched; checksums are left stale, which fontkit does not check.
 */
export function restrictedFont(dir: string, fsType = 0x0002, name = 'Restricted.ttf'): string {
  const bytes = readFileSync(join(ROOT, 'reports/fonts/DejaVuSansCondensed.ttf'));
  const tables = bytes.readUInt16BE(4);
  for (let i = 0; i < tables; i++) {
    const entry = 12 + 16 * i;
    if (bytes.toString('latin1', entry, entry + 4) === 'OS/2') {
      bytes.writeUInt16BE(fsType, bytes.readUInt32BE(entry + 8) + 8);
      const file = join(dir, name);
      writeFileSync(file, bytes);
      return file;
    }
  }
  throw new Error('no OS/2 table in the font');
}
