/**
 * Issue 35, "Bounded images": a logo is decoded or rasterised only within hard limits — at most
 * 16 megapixels and 8,192 pixels a side as drawn (an SVG after its viewBox), a time limit, no
 * filter but a small blur, no reference to anything outside the file — and a PNG's or JPEG's
 * declared size is refused from its header before any pixel is decoded. Each refusal names the
 * logo and the limit; through the command it is exit 2 with nothing written.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BrandError, loadBrand } from '../../src/brand';
import { LOGO_LIMITS } from '../../src/brand/logo-image';
import { ROOT, runCli, tempDir } from '../reports/helpers';
import { writeBrand } from './brand-files';
import { HOSTILE_PNGS, HOSTILE_SVGS, jpeg, png, svg } from './hostile-images';

/** A brand folder whose logo is `bytes` (as `name`); loads it and returns the BrandError's message. */
function refusal(name: string, bytes: string | Buffer, limits = LOGO_LIMITS, key: 'logo' | 'logo_dark' = 'logo'): string {
  const dir = tempDir('svc-brand-logo-');
  writeFileSync(join(dir, name), bytes);
  const file = writeBrand(dir, { firm_name: 'Test Firm', [key]: name });
  try {
    loadBrand(file, ROOT, { logoLimits: limits });
  } catch (e) {
    expect(e).toBeInstanceOf(BrandError);
    return (e as Error).message;
  }
  throw new Error(`${name} was accepted`);
}

describe('an SVG logo too large once its viewBox is applied is refused before a pixel is allocated', () => {
  it('height="1000000": 800 × 8,000,000 pixels, over 8,192 a side', () => {
    expect(refusal('tall.svg', HOSTILE_SVGS.tall)).toMatch(/logo: \S*tall\.svg is an SVG image of 800 × 8,000,000 pixels, over the limit of 8,192 pixels a side/);
  });

  it('a viewBox of 1 × 2000: 800 × 1,600,000 pixels', () => {
    expect(refusal('thin.svg', HOSTILE_SVGS.thinViewBox, LOGO_LIMITS, 'logo_dark')).toMatch(/logo_dark: \S*thin\.svg is an SVG image of 800 × 1,600,000 pixels, over the limit of 8,192 pixels a side/);
  });

  it('within each side but over 16 megapixels: 800 × 8,000 fits the sides, not a tighter pixel limit', () => {
    const tallish = svg('width="100" height="1000"', '<rect width="100" height="1000"/>');
    expect(refusal('tallish.svg', tallish, { ...LOGO_LIMITS, maxPixels: 4_000_000 })).toMatch(/800 × 8,000 pixels \(6\.4 megapixels\), over the limit of 4 megapixels/);
  });
});

describe('an SVG logo that would take long to draw is refused', () => {
  it('200 blurred rectangles: more filtered elements than the limit, refused before rendering', () => {
    expect(refusal('blur.svg', HOSTILE_SVGS.blurred)).toMatch(/logo: \S*blur\.svg is an SVG image that draws 200 elements through a filter; a logo may filter at most 8/);
  });

  it('a filter applied from CSS (it could reach every shape at once)', () => {
    const css = svg('width="10" height="10"', '<style>rect { filter: url(#b) }</style><filter id="b"><feGaussianBlur stdDeviation="1"/></filter><rect width="10" height="10"/>');
    expect(refusal('css-filter.svg', css)).toMatch(/sets a filter in CSS/);
  });

  it('a filter other than a small blur, and a large blur', () => {
    expect(refusal('turbulence.svg', svg('width="10" height="10"', '<filter id="t"><feTurbulence baseFrequency="0.1"/></filter><rect width="10" height="10" filter="url(#t)"/>'))).toMatch(
      /uses the filter effect <feTurbulence> \(line 1\); a logo's filters may only blur \(feGaussianBlur\)/,
    );
    expect(refusal('big-blur.svg', svg('width="10" height="10"', '<filter id="b"><feGaussianBlur stdDeviation="500"/></filter><rect width="10" height="10" filter="url(#b)"/>'))).toMatch(/blurs by more than 10 \(stdDeviation/);
  });

  it('<use> nested to repeat a group millions of times', () => {
    const levels = Array.from({ length: 7 }, (_, i) => `<g id="l${i + 1}">${Array.from({ length: 10 }, () => `<use href="#l${i}"/>`).join('')}</g>`).join('');
    expect(refusal('laughs.svg', svg('width="10" height="10"', `<defs><rect id="l0" width="1" height="1"/>${levels}</defs><use href="#l7"/>`))).toMatch(/draws more than 50,000 elements once its <use> references are expanded/);
  });

  it('a drawing that outlasts the time limit is stopped (a limit of 0 ms: the worker cannot answer in time)', () => {
    const plain = svg('width="10" height="10"', '<rect width="10" height="10" fill="#0f4c5c"/>');
    expect(refusal('slow.svg', plain, { ...LOGO_LIMITS, renderMs: 0 })).toMatch(/logo: \S*slow\.svg is an SVG image that took longer than the 0 s limit to draw; it was stopped/);
  });
});

describe('an SVG logo may refer only to its own fragments', () => {
  const cases: [string, string, RegExp][] = [
    ['<image href="../secret.png"> (a local file)', svg('width="10" height="10"', '<image href="../secret.png" width="10" height="10"/>'), /<image> refers to a file, an address or embedded data \(href, line 1\)/],
    ['xlink:href to http', svg('width="10" height="10"', '<image xlink:href="http://example.com/logo.png" width="10" height="10"/>'), /<image> refers to a file, an address or embedded data \(xlink:href/],
    ['an href spelt with character references', svg('width="10" height="10"', '<image href="&#46;&#46;/secret.png" width="10" height="10"/>'), /<image> refers to a file/],
    ['embedded data (a PNG no check has seen)', svg('width="10" height="10"', '<image href="data:image/png;base64,iVBORw0KGgo=" width="10" height="10"/>'), /refers to a file, an address or embedded data/],
    ['@import in a <style>', svg('width="10" height="10"', '<style>@import url(http://example.com/x.css);</style><rect width="10" height="10"/>'), /a <style> element \(line 1\) uses @import/],
    ['url() to a file in a style attribute', svg('width="10" height="10"', '<rect width="10" height="10" style="fill: url(file:///etc/passwd#a)"/>'), /a style attribute \(line 1\) refers with url\(\) to something outside the file/],
    ['url() to an address in a presentation attribute', svg('width="10" height="10"', '<rect width="10" height="10" fill="url(http://example.com/p.svg#g)"/>'), /the fill attribute of <rect> \(line 1\) refers with url\(\) to something outside the file/],
    ['a CSS escape that could spell url(', svg('width="10" height="10"', '<style>rect { fill: u\\72l(http://x/y) }</style><rect width="10" height="10"/>'), /uses a CSS escape/],
    ['an xml-stylesheet processing instruction', `<?xml-stylesheet href="http://example.com/s.css"?>${svg('width="10" height="10"', '<rect width="10" height="10"/>')}`, /holds a processing instruction/],
    ['a DOCTYPE with entities', `<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]>${svg('width="10" height="10"', '<text>&e;</text>')}`, /declares a DOCTYPE/],
  ];
  for (const [what, text, expected] of cases) {
    it(what, () => {
      const message = refusal('ref.svg', text);
      expect(message).toMatch(/logo: \S*ref\.svg is an SVG image that /);
      expect(message).toMatch(expected);
      expect(message).not.toMatch(/root:|example\.com|secret/);
    });
  }

  it('its own fragments are drawn: a gradient by url(#id), a shape by <use href="#id">, a small blur on a few', () => {
    const dir = tempDir('svc-brand-logo-ok-');
    const body =
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#0f4c5c"/><stop offset="1" stop-color="#e9c46a"/></linearGradient><filter id="b"><feGaussianBlur stdDeviation="2"/></filter><circle id="c" r="20" fill="url(#g)"/></defs>' +
      '<use href="#c" x="40" y="40"/><use xlink:href="#c" x="120" y="40" filter="url(#b)"/>';
    writeFileSync(join(dir, 'own.svg'), svg('width="200" height="100" viewBox="0 0 200 100"', body));
    const brand = loadBrand(writeBrand(dir, { firm_name: 'Test Firm', logo: 'own.svg' }));
    expect([brand.logo!.width, brand.logo!.height]).toEqual([800, 400]);
    expect(Buffer.from(brand.logo!.png).subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});

describe('PNG and JPEG logos are checked from their headers before any decoding', () => {
  it('a PNG declaring 20,000 × 20,000 (a file of a few hundred bytes) is refused', () => {
    expect(refusal('huge.png', HOSTILE_PNGS.huge())).toMatch(/logo: \S*huge\.png is a PNG image of 20,000 × 20,000 pixels, over the limit of 8,192 pixels a side/);
  });

  it('a PNG within the sides but over 16 megapixels', () => {
    expect(refusal('wide.png', png(8_000, 2_500, 100))).toMatch(/a PNG image of 8,000 × 2,500 pixels \(20 megapixels\), over the limit of 16 megapixels/);
  });

  it('a decompression bomb (100 × 100 declared, 64 MB of data) is refused when its data passes what its pixels need', () => {
    const bomb = HOSTILE_PNGS.bomb();
    expect(bomb.length).toBeLessThan(200_000);
    expect(refusal('bomb.png', bomb)).toMatch(/logo: \S*bomb\.png is a PNG whose image data inflates to more than its 100 × 100 pixels need \(30,100 bytes; a decompression bomb\)/);
  });

  it('a JPEG over the limit is refused by its header; one within it, as the reports take PNG', () => {
    expect(refusal('huge.jpg', jpeg(20_000, 20_000))).toMatch(/logo: \S*huge\.jpg is a JPEG image of 20,000 × 20,000 pixels, over the limit of 8,192 pixels a side/);
    expect(refusal('small.jpg', jpeg(200, 100))).toMatch(/is a JPEG image; give an SVG or PNG image/);
  });

  it('a PNG whose data is exactly its pixels is taken (the example logo, and one made here)', () => {
    const dir = tempDir('svc-brand-png-ok-');
    writeFileSync(join(dir, 'made.png'), png(100, 100, 100 * 301));
    const brand = loadBrand(writeBrand(dir, { firm_name: 'Test Firm', logo: 'made.png', logo_dark: 'logo.png' }));
    expect([brand.logo!.width, brand.logo!.height]).toEqual([100, 100]);
    expect(brand.logoDark!.width).toBeGreaterThan(0);
  });
});

describe('through the commands: exit 2, the logo and the limit named, nothing written', () => {
  const HOLDINGS = join(ROOT, 'examples/meridian-wealth-clients.csv');
  const hostile: [string, string | Buffer, RegExp][] = [
    ['tall.svg', HOSTILE_SVGS.tall, /over the limit of 8,192 pixels a side/],
    ['thin.svg', HOSTILE_SVGS.thinViewBox, /over the limit of 8,192 pixels a side/],
    ['blur.svg', HOSTILE_SVGS.blurred, /a logo may filter at most 8/],
    ['huge.png', HOSTILE_PNGS.huge(), /over the limit of 8,192 pixels a side/],
    ['bomb.png', HOSTILE_PNGS.bomb(), /a decompression bomb/],
  ];

  it('`run --brand` with each hostile logo, and `brand check` with the first', async () => {
    const runs = hostile.map(async ([name, bytes, limit], i) => {
      const dir = tempDir('svc-brand-logo-cli-');
      writeFileSync(join(dir, name), bytes);
      const file = writeBrand(dir, { firm_name: 'Test Firm', logo: name });
      const out = join(dir, 'out');
      const preview = join(dir, 'preview', 'p.pdf');
      const results = await Promise.all([runCli(['run', HOLDINGS, '--brand', file, '--out', out, '--as-of', '2026-10-31']), ...(i === 0 ? [runCli(['brand', 'check', file, '--out', preview])] : [])]);
      for (const r of results) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`logo: \\S*${name.replace('.', '\\.')} is `));
        expect(r.stderr).toMatch(limit);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
      // Not even an empty folder (issue 34: no empty --out left by a refused run).
      expect(existsSync(out) ? readdirSync(out) : 'absent').toBe('absent');
      expect(existsSync(preview)).toBe(false);
    });
    await Promise.all(runs);
  }, 180_000);
});
