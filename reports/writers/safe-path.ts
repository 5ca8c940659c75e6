import path from 'node:path';

/**
 * A file-name-safe slug: accents folded, lower-case a-z0-9 and single hyphens, at most 80
 * characters, never empty, never "." or "..". Path separators and dots cannot survive, so
 * "../../etc/passwd" becomes "etc-passwd".
 */
export function slugify(text: string, fallback = 'portfolio'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
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
