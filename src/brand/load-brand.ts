import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../holdings/types';
import { AA_TEXT, adjustForContrast, contrast } from './contrast';
import { fontProblem, type BrandFont } from './font-licence';
import { readLogo, type LogoImage } from './logo-image';
import { parseManagers, type Manager } from './managers';
import { BrandFile } from './schema';

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
  coverTitle?: string;
  footer?: string;
  /** The firm's disclosures, one entry per paragraph. */
  disclosures: string[];
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

/** Reads the brand file at `file` (relative to `cwd`); every problem a BrandError naming the key or file. */
export function loadBrand(file: string, cwd = process.cwd()): Brand {
  const brandPath = path.resolve(cwd, file);
  let doc: unknown;
  const digest = createHash('sha256');
  try {
    const raw = readFileSync(brandPath);
    digest.update(raw);
    doc = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BrandError(`cannot read the brand file ${brandPath}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const parsed = BrandFile.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || 'top level';
    const allowed = issue.code === 'unrecognized_keys' ? `: not a brand key; the keys are ${Object.keys(BrandFile.shape).join(', ')}` : `: ${issue.message}`;
    throw new BrandError(`brand file ${brandPath}: ${key}${allowed}`);
  }
  const b = parsed.data;
  const dir = path.dirname(brandPath);
  const read = (key: string, relative: string): Buffer => {
    const full = path.resolve(dir, relative);
    try {
      const bytes = readFileSync(full);
      digest.update(`\0${key}\0${bytes.length}\0`).update(bytes);
      return bytes;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new BrandError(`brand file ${brandPath}: ${key}: cannot read ${full}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : (e as Error).message}`);
    }
  };
  const logo = (key: string, relative: string | undefined): LogoImage | undefined => {
    if (relative === undefined) return undefined;
    const image = readLogo(read(key, relative), relative);
    if (typeof image === 'string') throw new BrandError(`brand file ${brandPath}: ${key}: ${path.resolve(dir, relative)} is ${image}; give an SVG or PNG image`);
    return image;
  };
  const font = (key: string, relative: string | undefined): BrandFont | undefined => {
    if (relative === undefined) return undefined;
    const bytes = read(key, relative);
    const problem = fontProblem(bytes);
    if (problem) throw new BrandError(`brand file ${brandPath}: ${key}: ${path.resolve(dir, relative)} is ${problem}`);
    return { source: relative, path: path.resolve(dir, relative), bytes: new Uint8Array(bytes) };
  };
  let managers = new Map<string, Manager>();
  if (b.managers !== undefined) {
    try {
      managers = parseManagers(read('managers', b.managers).toString('utf8'));
    } catch (e) {
      if (e instanceof BrandError) throw e;
      throw new BrandError(`brand file ${brandPath}: managers: ${path.resolve(dir, b.managers)} ${(e as Error).message}`);
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
    coverTitle: b.cover_title,
    footer: b.footer,
    disclosures: (b.disclosures ?? '').split(/\r?\n\s*\r?\n/).map((p) => p.replace(/\s*\r?\n\s*/g, ' ').trim()).filter(Boolean),
    managers,
    adjustments,
    // Every named file has been read (managers above, images and fonts just now).
    digest: digest.digest('hex'),
  };
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
