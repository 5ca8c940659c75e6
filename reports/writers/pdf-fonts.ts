import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type PDFDocument from 'pdfkit';

/** Font roles used by the PDF writers, mapped to the TTF files shipped in reports/fonts/. */
export const FONT_FILES = {
  serif: 'DejaVuSerif.ttf',
  serifBold: 'DejaVuSerif-Bold.ttf',
  sans: 'DejaVuSansCondensed.ttf',
  sansBold: 'DejaVuSansCondensed-Bold.ttf',
} as const;
export type FontRole = keyof typeof FONT_FILES;

/**
 * reports/fonts next to this module; from a bundle elsewhere, reports/fonts under the working
 * directory. Never the system's fonts: the PDF must look the same on every machine.
 */
function fontDir(): string {
  const candidates = [fileURLToPath(new URL('../fonts/', import.meta.url)), path.resolve('reports/fonts')];
  const found = candidates.find((dir) => existsSync(path.join(dir, FONT_FILES.serif)));
  if (!found) throw new Error(`The report fonts are missing: looked for ${FONT_FILES.serif} in ${candidates.join(' and ')}.`);
  return found;
}

let cache: Record<FontRole, Buffer> | undefined;

/** Reads the font files once per process; each document registers them from memory. */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  if (!cache) {
    const dir = fontDir();
    cache = Object.fromEntries(Object.entries(FONT_FILES).map(([role, file]) => [role, readFileSync(path.join(dir, file))])) as Record<FontRole, Buffer>;
  }
  for (const [role, data] of Object.entries(cache)) doc.registerFont(role, data);
}

export type { PDFDocument };
