/**
 * Issue 28: a brand file that cannot be used stops the run before anything is written (exit 2,
 * the key or file named) — a wrong key, a missing logo, an image that is not one, a font whose
 * licence forbids embedding — and a low-contrast colour pair is adjusted, the run saying so.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from '../reports/helpers';
import { restrictedFont, writeBrand } from './brand-files';
import { contrast } from '../../src/brand';

const HOLDINGS = join(ROOT, 'examples/meridian-wealth-clients.csv');

async function refused(brand: Record<string, unknown>, prepare?: (dir: string) => void) {
  const dir = tempDir('svc-brand-bad-');
  prepare?.(dir);
  const file = writeBrand(dir, brand);
  const out = join(dir, 'out');
  const run = await runCli(['run', HOLDINGS, '--brand', file, '--out', out, '--as-of', '2026-10-31']);
  const preview = join(dir, 'preview.pdf');
  const check = await runCli(['brand', 'check', file, '--out', preview]);
  return { run, check, wrote: existsSync(out) || existsSync(preview) };
}

describe('a brand file that cannot be used: exit 2, the key or file named, nothing written', () => {
  it('a key that is not a brand key', async () => {
    const r = await refused({ firm_name: 'Test Firm', colour_primary: '#123456' });
    for (const x of [r.run, r.check]) {
      expect(x.code).toBe(2);
      expect(x.stderr).toMatch(/colour_primary: not a brand key; the keys are firm_name, logo, .*primary_colour/);
      expect(x.stderr).not.toMatch(/\n\s+at /);
    }
    expect(r.wrote).toBe(false);
  });

  it('a logo file that is not there', async () => {
    const r = await refused({ firm_name: 'Test Firm', logo: 'missing-logo.png' });
    for (const x of [r.run, r.check]) {
      expect(x.code).toBe(2);
      expect(x.stderr).toMatch(/logo: cannot read \S*missing-logo\.png: no such file/);
    }
    expect(r.wrote).toBe(false);
  });

  it('a logo that is not an image', async () => {
    const r = await refused({ firm_name: 'Test Firm', logo: 'broken.png' }, (dir) => writeFileSync(join(dir, 'broken.png'), 'this is not an image\n'));
    for (const x of [r.run, r.check]) {
      expect(x.code).toBe(2);
      expect(x.stderr).toMatch(/logo: \S*broken\.png is neither a PNG nor an SVG image/);
    }
    expect(r.wrote).toBe(false);
  });

  it('a font whose licence forbids embedding (OS/2 fsType 0x0002)', async () => {
    const r = await refused({ firm_name: 'Test Firm', font_regular: 'Restricted.ttf' }, (dir) => restrictedFont(dir));
    for (const x of [r.run, r.check]) {
      expect(x.code).toBe(2);
      expect(x.stderr).toMatch(/font_regular: \S*Restricted\.ttf is a font whose licence forbids embedding/);
    }
    expect(r.wrote).toBe(false);
  });

  it('a font whose licence forbids subsetting (OS/2 fsType 0x0100), which the reports always do', async () => {
    // Installable embedding (level 0) with the no-subsetting bit.
    const r = await refused({ firm_name: 'Test Firm', font_bold: 'Whole.ttf' }, (dir) => restrictedFont(dir, 0x0100, 'Whole.ttf'));
    for (const x of [r.run, r.check]) {
      expect(x.code).toBe(2);
      expect(x.stderr).toMatch(/font_bold: \S*Whole\.ttf is a font whose licence forbids subsetting/);
    }
    expect(r.wrote).toBe(false);
  });

  it('a colour that is not #rrggbb', async () => {
    const r = await refused({ firm_name: 'Test Firm', accent_colour: 'teal' });
    expect(r.run.code).toBe(2);
    expect(r.run.stderr).toMatch(/accent_colour: must be a colour as #rrggbb/);
    expect(r.wrote).toBe(false);
  });
});

describe('a low-contrast colour pair', () => {
  it('is adjusted to WCAG 2.1 AA (4.5:1) and the check says which colour, from what to what', async () => {
    const dir = tempDir('svc-brand-contrast-');
    const file = writeBrand(dir, { firm_name: 'Pale Firm', logo: 'logo.png', primary_colour: '#9ecae1', accent_colour: '#a0b0c0' });
    const preview = join(dir, 'preview.pdf');
    const r = await runCli(['brand', 'check', file, '--out', preview]);
    expect(r.code).toBe(0);
    const said = /brand primary_colour #9ECAE1 has a contrast of ([\d.]+):1 .*; darkened to #([0-9A-F]{6}) \(([\d.]+):1\)/.exec(r.stderr);
    expect(said, r.stderr).not.toBeNull();
    expect(Number(said![1])).toBeLessThan(4.5);
    expect(contrast(said![2]!, 'F7F4EE')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(said![2]!, 'FFFFFF')).toBeGreaterThanOrEqual(4.5);
    // The accent, on the darkened primary, is lightened until it reads.
    const accent = /brand accent_colour #A0B0C0 .* on the primary colour #([0-9A-F]{6}).*; lightened to #([0-9A-F]{6})/.exec(r.stderr);
    expect(accent, r.stderr).not.toBeNull();
    expect(accent![1]).toBe(said![2]);
    expect(contrast(accent![2]!, accent![1]!)).toBeGreaterThanOrEqual(4.5);
    expect(existsSync(preview)).toBe(true);
  });

  it('a pair that already reads is left as it is and nothing is said', async () => {
    const dir = tempDir('svc-brand-contrast-ok-');
    const file = writeBrand(dir, { firm_name: 'Dark Firm', primary_colour: '#0f4c5c', accent_colour: '#e9c46a' });
    const r = await runCli(['brand', 'check', file, '--out', join(dir, 'p.pdf')]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/WCAG/);
  });
});
