import { z } from 'zod';
import { localTextSchema } from './local-text';

const COLOUR = /^#[0-9a-fA-F]{6}$/;
const colour = z.string().regex(COLOUR, 'must be a colour as #rrggbb, e.g. "#1f2a44"');
const file = (what: string) => z.string().trim().min(1, `must name ${what} (a path relative to the brand file)`);

/**
 * The brand file (issue 28): a firm's name, logo, colours, fonts and words for its client
 * documents. The keys are the contract (a firm's file keeps working across versions): an
 * unknown key is refused, naming it, rather than ignored. Paths are relative to the brand file.
 */
export const BrandFile = z
  .object({
    firm_name: z.string().trim().min(1, 'must name the firm').max(200),
    logo: file('an SVG or PNG logo').optional(),
    /** For dark backgrounds (the PDF cover's band); absent: `logo` is used there too. */
    logo_dark: file('an SVG or PNG logo for dark backgrounds').optional(),
    primary_colour: colour.optional(),
    accent_colour: colour.optional(),
    font_regular: file('a TTF or OTF font').optional(),
    font_bold: file('a TTF or OTF font').optional(),
    /** The firm's default language for its words (issue 36): a client's language its texts lack falls back to it; default en. */
    language: z.string().trim().min(1).max(40).optional(),
    // The firm's words: one text, or one per language ({"en": "…", "de": "…"}), issue 36.
    cover_title: localTextSchema(120).optional(),
    footer: localTextSchema(160).optional(),
    /** Paragraphs separated by a blank line. */
    disclosures: localTextSchema(20_000).optional(),
    /** The broker's schedule's cover letter (issue 37, `svc-report insurance-schedule`): paragraphs separated by a blank line. */
    insurance_letter: localTextSchema(5_000).optional(),
    /** A csv of portfolio,name,email,phone: each portfolio's relationship manager, for the cover. */
    managers: file('a csv of portfolio,name,email,phone').optional(),
  })
  .strict();
export type BrandFile = z.infer<typeof BrandFile>;
export const BRAND_KEYS = Object.keys(BrandFile.shape) as (keyof BrandFile)[];
