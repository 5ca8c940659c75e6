/**
 * WCAG 2.1 contrast (success criterion 1.4.3, level AA: 4.5:1 for body text) between brand
 * colours, and the nearest colour of the same hue that reaches it. Colours are "RRGGBB".
 */
export const AA_TEXT = 4.5;

function channels(hex: string): [number, number, number] {
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** Relative luminance, as WCAG 2.1 defines it. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const toHex = (rgb: number[]) => rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('').toUpperCase();

/** `hex` mixed towards black (t < 0) or white (t > 0) by |t|. */
function shade(hex: string, t: number): string {
  const target = t < 0 ? 0 : 255;
  return toHex(channels(hex).map((c) => c + (target - c) * Math.abs(t)));
}

/**
 * `fg` darkened or lightened (away from `bg`) by the least amount that gives `ratio` against
 * `bg`, in 1 % steps; `fg` itself when it already does. Black or white always reaches 4.5:1
 * against one of the two directions, so the answer exists unless `bg` is mid-grey, where the
 * farther extreme is returned.
 */
export function adjustForContrast(fg: string, bg: string, ratio = AA_TEXT): string {
  if (contrast(fg, bg) >= ratio) return fg.toUpperCase();
  const direction = luminance(bg) > 0.18 ? -1 : 1;
  for (let step = 1; step <= 100; step++) {
    const candidate = shade(fg, (direction * step) / 100);
    if (contrast(candidate, bg) >= ratio) return candidate;
  }
  return contrast('000000', bg) > contrast('FFFFFF', bg) ? '000000' : 'FFFFFF';
}
