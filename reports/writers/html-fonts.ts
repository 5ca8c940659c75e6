/**
 * The web page's fonts (issue 38): the PDF's (DejaVu, or the firm's own fonts; Noto for Chinese,
 * Japanese, Korean, Arabic and Hebrew text) subset to the characters the page uses and inlined as
 * WOFF2 data: URIs in @font-face rules, so the page looks the same offline on every device.
 * Subsetting is harfbuzz's (subset-font, its WebAssembly build): fontkit's subsets are for PDF
 * embedding (no cmap, OS/2 or name table), which browsers refuse as web fonts. A subset is kept
 * per (font, character set): a run's pages in one language mostly use the same characters.
 */
import { readFileSync } from 'node:fs';
import subsetFont from 'subset-font';
import type { Brand, BrandFont } from '../../src/brand';
import { houseFontPath, type FontRole } from './pdf-fonts';
import { CJK } from './pdf-line-breaks';
import { FALLBACKS, fallbackFontPath, type FallbackFont } from './pdf-text-runs';

/** The families the style sheet names (html-styles.ts). */
export const FAMILIES = { sans: 'Report Sans', serif: 'Report Serif', script: 'Report Script' } as const;

interface Face {
  family: string;
  /** Leave out the glyphs only layout features reach (a CJK font's vertical and locale forms: most of its subset); never for Arabic, whose joining forms are those glyphs. */
  noLayoutClosure?: boolean;
  weight: 400 | 700;
  /** A stable name of the font's bytes, for the cache. */
  key: string;
  bytes: () => Buffer;
}

const fileBytes = new Map<string, Buffer>();
const readOnce = (file: string) => () => {
  let b = fileBytes.get(file);
  if (!b) fileBytes.set(file, (b = readFileSync(file)));
  return b;
};

const brandFace = (family: string, weight: 400 | 700, f: BrandFont): Face => ({ family, weight, key: `${f.path}:${f.bytes.byteLength}`, bytes: () => Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength) });

function houseFace(family: string, weight: 400 | 700, role: FontRole): Face {
  const file = houseFontPath(role);
  return { family, weight, key: file, bytes: readOnce(file) };
}

/** The house fonts' roles, or the firm's regular and bold fonts in them (as the PDF's registerFonts). */
function baseFaces(brand: Pick<Brand, 'fontRegular' | 'fontBold'> | undefined): Face[] {
  const pick = (family: string, weight: 400 | 700, role: FontRole) => {
    const firm = weight === 700 ? brand?.fontBold : brand?.fontRegular;
    return firm ? brandFace(family, weight, firm) : houseFace(family, weight, role);
  };
  return [pick(FAMILIES.sans, 400, 'sans'), pick(FAMILIES.sans, 700, 'sansBold'), pick(FAMILIES.serif, 400, 'serif'), pick(FAMILIES.serif, 700, 'serifBold')];
}

const ARABIC = /[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]/;
const HEBREW = /[\u0590-\u05ff\ufb1d-\ufb4f]/;
const KANA = /[\u3040-\u30ff\u31f0-\u31ff]/;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;

/** The script font the page's text needs beyond DejaVu's Latin, Greek and Cyrillic, as the PDF's fallbacks pick it. */
function scriptFont(text: string, lang: string): FallbackFont | undefined {
  const key = ARABIC.test(text) ? 'ar' : HEBREW.test(text) ? 'he' : HANGUL.test(text) ? 'kr' : KANA.test(text) || lang === 'ja' ? 'jp' : CJK.test(text) ? (lang.startsWith('zh') ? 'sc' : 'jp') : undefined;
  return key ? FALLBACKS.find((f) => f.key === key) : undefined;
}

/** Subsets kept (font and character set to the WOFF2's base64); a bound, not a leak over a long run. */
const SUBSETS_KEPT = 256;
const subsets = new Map<string, Promise<string>>();

function subsetOf(face: Face, chars: string): Promise<string> {
  const key = `${face.key}\u0000${face.noLayoutClosure ? 1 : 0}\u0000${chars}`;
  let s = subsets.get(key);
  if (!s) {
    if (subsets.size >= SUBSETS_KEPT) subsets.clear();
    s = subsetFont(face.bytes(), chars, { targetFormat: 'woff2', noLayoutClosure: face.noLayoutClosure }).then((b) => b.toString('base64'));
    // A failure is not kept: the next page tries again.
    s.catch(() => subsets.delete(key));
    subsets.set(key, s);
  }
  return s;
}

const ENTITY: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * The characters a page can show: its text and its attributes' values (labels the style sheet
 * shows, titles, the script's sentences), entities decoded, never the markup's own names; the
 * digits always (the script formats counts). Distinct and sorted, one cache key per set.
 */
export function characterSet(markup: string): string {
  const shown = markup.replace(/<[a-zA-Z][^>]*>|<\/[a-zA-Z][^>]*>|<!doctype[^>]*>/gi, (tag) => [...tag.matchAll(/="([^"]*)"/g)].map((m) => ` ${m[1]}`).join(''));
  const text = `${shown.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITY[e]!)}0123456789`;
  return [...new Set(text)].filter((c) => !/\s/.test(c)).sort().join('');
}

/**
 * The @font-face rules for a page of this markup (its characterSet): the four
 * house (or firm) faces, and the script font (regular and bold) when the text needs one.
 */
export async function fontFaces(markup: string, lang: string, brand: Pick<Brand, 'fontRegular' | 'fontBold'> | undefined): Promise<string> {
  const chars = characterSet(markup);
  const faces = baseFaces(brand);
  const script = scriptFont(chars, lang);
  if (script) {
    for (const weight of [400, 700] as const) {
      const file = fallbackFontPath(script, weight === 700);
      faces.push({ family: FAMILIES.script, weight, key: file, bytes: readOnce(file), noLayoutClosure: script.key !== 'ar' && script.key !== 'he' });
    }
  }
  const rules = await Promise.all(
    faces.map(async (f) => `@font-face{font-family:"${f.family}";font-weight:${f.weight};font-style:normal;font-display:swap;src:url(data:font/woff2;base64,${await subsetOf(f, chars)}) format("woff2")}`),
  );
  return rules.join('\n');
}
