import { createHash } from 'node:crypto';
import type { z } from 'zod';
import path from 'node:path';
import { InputError } from '../holdings/types';
import { editDistance } from '../holdings/columns';
import { readRegularFileSync, UnreadableFile } from '../regular-file';
import { BRAND_FILE_BYTES, brandFolder, readBrandPath, type BrandFolder } from './brand-paths';
import { AA_TEXT, adjustForContrast, contrast } from './contrast';
import { fontProblem, type BrandFont } from './font-licence';
import { readLogo, type LogoImage, type LogoLimits } from './logo-image';
import { parseManagers, type Manager } from './managers';
import { BRAND_KEYS, BrandFile } from './schema';
import { localText, type LocalText } from './local-text';
import { DEFAULT_LANGUAGE, LanguageError, parseLanguage, type Language } from '../i18n/languages';

export type { Manager } from './managers';
export type { LogoImage } from './logo-image';
export type { BrandFont } from './font-licence';

/**
 * A brand file read, checked and resolved: images decoded, fonts checked, colours adjusted for
 * contrast. Plain data (it crosses to the report writers' worker threads by structured clone).
 */
export interface Brand {
  /** The brand file, absolute. */
  file: string;
  firmName: string;
  logo?: LogoImage;
  /** For dark backgrounds; the cover's band uses it when present. */
  logoDark?: LogoImage;
  /** RRGGBB, already adjusted for WCAG 2.1 AA text contrast. */
  primary?: string;
  accent?: string;
  fontRegular?: BrandFont;
  fontBold?: BrandFont;
  /** The cover title, footer and disclosures in the firm's language; brandText gives them in a client's. */
  coverTitle?: string;
  footer?: string;
  /** The firm's disclosures, one entry per paragraph. */
  disclosures: string[];
  /** The firm's default language (the brand's "language", default en): where a client's language its words lack falls back. */
  language: Language;
  /** The firm's words as given, one text or one per language (issue 36): read with brandText. */
  localised: Partial<Record<'cover_title' | 'footer' | 'disclosures' | 'insurance_letter', LocalText>>;
  /** Relationship managers by portfolio name or id. */
  managers: Map<string, Manager>;
  /** Colours changed for contrast, one sentence each: the run says them. */
  adjustments: string[];
  /**
   * SHA-256 over the brand file and every file it names, as read: a queue job carries this, not
   * a path, and a worker uses its own brand only when its digest matches (issue 29).
   */
  digest: string;
}

/** The page (near white): text in the primary colour sits on it, and white text (lighter still) on the primary. */
const PAPER = 'F7F4EE';

export class BrandError extends InputError {
  override name = 'BrandError';
}

export interface LoadOptions {
  /** --brand-root (ADDIN_BRAND_ROOT): the folder the brand's files must be in, absolute paths allowed inside it; default the brand file's folder. */
  root?: string;
  /** The logo limits (tests shorten the time limit). */
  logoLimits?: LogoLimits;
}

/**
 * Reads the brand file at `file` (relative to `cwd`); every problem a BrandError naming the key
 * or file, never quoting what a file holds (a path could name any file on the machine).
 */
export function loadBrand(file: string, cwd = process.cwd(), options: LoadOptions = {}): Brand {
  const brandPath = path.resolve(cwd, file);
  let folder: BrandFolder;
  try {
    folder = brandFolder(brandPath, options.root, cwd);
  } catch (e) {
    throw new BrandError(`--brand-root: ${(e as Error).message}`);
  }
  const digest = createHash('sha256');
  // The brand file itself is the administrator's choice (--brand, the config, ADDIN_BRAND_FILE), not confined; still a regular file of bounded size.
  let raw: Buffer;
  try {
    raw = readRegularFileSync(brandPath, BRAND_FILE_BYTES.brand);
  } catch (e) {
    if (!(e instanceof UnreadableFile)) throw e;
    throw new BrandError(`cannot read the brand file ${brandPath}: ${e.kind === 'missing' ? 'no such file' : e.message}`);
  }
  digest.update(raw);
  let doc: unknown;
  try {
    doc = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new BrandError(`the brand file ${brandPath} is not a JSON document${jsonWhere(raw, e)}; a brand file is a JSON object of brand keys (docs/report-job.md, "Your firm's brand")`);
  }
  const parsed = BrandFile.safeParse(doc);
  if (!parsed.success) throw new BrandError(`brand file ${brandPath}: ${describeIssue(parsed.error.issues[0]!)}`);
  const b = parsed.data;
  let language: Language = DEFAULT_LANGUAGE;
  try {
    if (b.language !== undefined) language = parseLanguage(b.language, 'language');
  } catch (e) {
    if (e instanceof LanguageError) throw new BrandError(`brand file ${brandPath}: ${e.message}`);
    throw e;
  }
  const localised: Brand['localised'] = {};
  for (const key of ['cover_title', 'footer', 'disclosures', 'insurance_letter'] as const) {
    const value = b[key];
    if (value === undefined) continue;
    try {
      localised[key] = localText(key, value, language);
    } catch (e) {
      throw new BrandError(`brand file ${brandPath}: ${(e as Error).message}`);
    }
  }
  const inFirmLanguage = (key: keyof Brand['localised']) => {
    const t = localised[key];
    return t === undefined ? undefined : 'all' in t ? t.all : t.by[language];
  };
  const read = (key: string, given: string, maxBytes: number): { path: string; bytes: Buffer } => {
    const got = readBrandPath(folder, given, maxBytes);
    if ('problem' in got) throw new BrandError(`brand file ${brandPath}: ${key}: cannot read ${got.path}: ${got.problem}`);
    digest.update(`\0${key}\0${got.bytes.length}\0`).update(got.bytes);
    return got;
  };
  const logo = (key: string, relative: string | undefined): LogoImage | undefined => {
    if (relative === undefined) return undefined;
    const got = read(key, relative, BRAND_FILE_BYTES.logo);
    const image = readLogo(got.bytes, relative, options.logoLimits);
    if (typeof image === 'string') throw new BrandError(`brand file ${brandPath}: ${key}: ${got.path} is ${image}; give an SVG or PNG image`);
    return image;
  };
  const font = (key: string, relative: string | undefined): BrandFont | undefined => {
    if (relative === undefined) return undefined;
    const got = read(key, relative, BRAND_FILE_BYTES.font);
    const problem = fontProblem(got.bytes);
    if (problem) throw new BrandError(`brand file ${brandPath}: ${key}: ${got.path} is ${problem}`);
    return { source: relative, path: got.path, bytes: new Uint8Array(got.bytes) };
  };
  let managers = new Map<string, Manager>();
  if (b.managers !== undefined) {
    const got = read('managers', b.managers, BRAND_FILE_BYTES.managers);
    try {
      managers = parseManagers(got.bytes.toString('utf8'), language);
    } catch (e) {
      throw new BrandError(`brand file ${brandPath}: managers: ${got.path} ${(e as Error).message}`);
    }
  }
  const adjustments: string[] = [];
  const primary = b.primary_colour && readable('primary_colour', b.primary_colour.slice(1).toUpperCase(), PAPER, 'as text on the page and behind white text', adjustments);
  const accent = b.accent_colour && readable('accent_colour', b.accent_colour.slice(1).toUpperCase(), primary ?? '1F2A44', `as text on the primary colour #${primary ?? '1F2A44'}`, adjustments);
  const images = { logo: logo('logo', b.logo), logoDark: logo('logo_dark', b.logo_dark) };
  const fonts = { fontRegular: font('font_regular', b.font_regular), fontBold: font('font_bold', b.font_bold) };
  return {
    file: brandPath,
    firmName: b.firm_name,
    ...images,
    primary,
    accent,
    ...fonts,
    coverTitle: inFirmLanguage('cover_title'),
    footer: inFirmLanguage('footer'),
    disclosures: paragraphs(inFirmLanguage('disclosures')),
    language,
    localised,
    managers,
    adjustments,
    // Every named file has been read (managers above, images and fonts just now).
    digest: digest.digest('hex'),
  };
}

/** Disclosures as paragraphs: separated by a blank line, each on one line. */
export function paragraphs(text: string | undefined): string[] {
  return (text ?? '').split(/\r?\n\s*\r?\n/).map((p) => p.replace(/\s*\r?\n\s*/g, ' ').trim()).filter(Boolean);
}

/**
 * The colour as used for text: unchanged when it reaches 4.5:1 against `background`, else the
 * nearest shade that does, with a sentence for the run. Adjusted rather than refused: a firm's
 * colour a little too light for small text should not stop its month-end run.
 */
function readable(key: string, colour: string, background: string, use: string, adjustments: string[]): string {
  const fixed = adjustForContrast(colour, background);
  if (fixed !== colour) {
    const how = contrast(fixed, '000000') < contrast(colour, '000000') ? 'darkened' : 'lightened';
    adjustments.push(
      `brand ${key} #${colour} has a contrast of ${contrast(colour, background).toFixed(2)}:1 ${use}, under the ${AA_TEXT}:1 WCAG 2.1 AA asks of text; ${how} to #${fixed} (${contrast(fixed, background).toFixed(2)}:1) in the documents.`,
    );
  }
  return fixed;
}

/** The relationship manager of a portfolio: by its name, else by its id. */
export function managerOf(brand: Pick<Brand, 'managers'> | undefined, portfolio: { name?: string; id?: string | null }): Manager | undefined {
  if (!brand) return undefined;
  return (portfolio.name !== undefined ? brand.managers.get(portfolio.name) : undefined) ?? (portfolio.id ? brand.managers.get(portfolio.id) : undefined);
}

/**
 * Where the brand file stops being JSON, as a line and column, from the parser's position when it
 * gives one; the parser's own message is not repeated, as it can quote the file.
 */
function jsonWhere(raw: Buffer, error: unknown): string {
  const text = raw.toString('utf8');
  if (text.trim() === '') return ' (it is empty)';
  const position = /at position (\d+)/.exec(error instanceof Error ? error.message : '');
  if (!position) return text.trimStart().startsWith('{') ? '' : ' (it does not start with {)';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  return ` (at line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
}

/** A schema problem in words: the key, what is wrong, and for an unknown key the brand key it most likely meant. */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => {
      const near = nearestKey(k);
      return near ? `${k} (did you mean ${near}?)` : k;
    });
    return `${keys.join(', ')}: not a brand key; the keys are ${BRAND_KEYS.join(', ')}`;
  }
  return `${issue.path.join('.') || 'top level'}: ${issue.message}`;
}

/** The brand key a misspelt one most likely meant ("primary_color" → primary_colour), with the holdings' columns' edit distance and tolerance. */
export function nearestKey(key: string): string | undefined {
  const k = key.trim().toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const known of BRAND_KEYS) {
    const d = editDistance(k, known);
    if (d <= Math.max(2, Math.floor(known.length / 4)) && (!best || d < best.distance)) best = { key: known, distance: d };
  }
  return best?.key;
}
