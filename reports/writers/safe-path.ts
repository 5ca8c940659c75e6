import path from 'node:path';

/** Most file systems allow 255 bytes per name; the slug leaves room for "-YYYY-MM-DD.xlsx". */
const MAX_SLUG_CHARS = 80;
const MAX_SLUG_BYTES = 200;

/**
 * A file-name-safe slug that keeps the name in its own script: letters, marks and digits of
 * every script are kept (山田家 stays 山田家, Σμιθ becomes σμιθ), Latin accents are folded
 * (Hermès → hermes, as before), everything else (separators, dots, punctuation, spaces,
 * control and invisible format characters) becomes single hyphens. Lower case, NFC, at most 80
 * characters and 200 UTF-8 bytes, never empty, never "." or "..". Path separators and dots
 * cannot survive, so "../../etc/passwd" becomes "etc-passwd".
 */
export function slugify(text: string, fallback = 'portfolio'): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    // Recompose: Hangul syllables and kana with voicing marks come back whole.
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  let slug = '';
  let bytes = 0;
  for (const ch of [...words].slice(0, MAX_SLUG_CHARS)) {
    bytes += Buffer.byteLength(ch);
    if (bytes > MAX_SLUG_BYTES) break;
    slug += ch;
  }
  slug = slug.replace(/-+$/g, '');
  return slug === '' ? fallback : slug;
}

/**
 * The absolute path of `fileName` inside `outDir`. Refuses anything that would land outside
 * it (a name with separators or "..", an absolute name), so a crafted portfolio name can
 * never write elsewhere even if a caller forgot to slug it.
 */
export function pathInside(outDir: string, fileName: string): string {
  const dir = path.resolve(outDir);
  const full = path.resolve(dir, fileName);
  if (path.dirname(full) !== dir || fileName !== path.basename(fileName) || fileName === '' || fileName.startsWith('.')) {
    throw new Error(`The report file name "${fileName}" is not a plain file name inside the output folder ${dir}.`);
  }
  return full;
}
