import type { Brand } from '../../src/brand';

/** What a run says of its brand: which file, and each colour adjusted for contrast (WCAG 2.1 AA). */
export function sayBrand(brand: Brand | undefined, log: (line: string) => void): void {
  if (!brand) return;
  log(`Brand: ${brand.firmName} (${brand.file}).`);
  for (const line of brand.adjustments) log(`Note: ${line}`);
}
