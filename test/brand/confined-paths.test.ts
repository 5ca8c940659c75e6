/**
 * Issue 35, "Brand files confined": every path in a brand file is relative to its folder and
 * stays there (or inside --brand-root / ADDIN_BRAND_ROOT, where absolute paths are then
 * allowed); a link is followed only to a file inside; only a regular file of bounded size is
 * read (a FIFO or /dev/zero is refused at once, not waited on); an error names the key and the
 * file and never quotes what the file holds. Fonts are parsed whole at the check. Issue 34: an
 * unknown key close to a brand key gets "did you mean".
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BrandError, loadBrand } from '../../src/brand';
import { hostConfigFromEnv, HostConfigError } from '../../addin/server/config';
import { ROOT, runCli, tempDir } from '../reports/helpers';
import { restrictedFont, writeBrand } from './brand-files';

const SECRET = 'SVC_CLIENT_SECRET=hunter2-very-secret';

/** A brand folder (brand.json beside the example's logos and csv) inside a parent holding a secret file. */
function brandFolder(brand: Record<string, unknown>): { parent: string; dir: string; file: string } {
  const parent = tempDir('svc-brand-paths-');
  writeFileSync(join(parent, 'secret.env'), `${SECRET}\n`);
  const dir = join(parent, 'brand');
  mkdirSync(dir);
  return { parent, dir, file: writeBrand(dir, brand) };
}

function refused(file: string, root?: string): string {
  try {
    loadBrand(file, ROOT, { root });
  } catch (e) {
    expect(e).toBeInstanceOf(BrandError);
    const message = (e as Error).message;
    // Never what the file named holds: /etc/passwd's first line, a secret.
    expect(message).not.toMatch(/root:x|hunter2|SVC_CLIENT_SECRET/);
    return message;
  }
  throw new Error('the brand file was accepted');
}

describe('paths stay in the brand file’s folder', () => {
  it('/etc/passwd as the managers csv or a logo: an absolute path, refused without reading it', () => {
    const { file } = brandFolder({ firm_name: 'Test Firm', managers: '/etc/passwd' });
    expect(refused(file)).toMatch(/managers: cannot read \/etc\/passwd: is an absolute path; paths in a brand file are relative to its folder and stay inside the brand file's folder \S+ \(an administrator can allow another folder, and absolute paths in it, with --brand-root\)/);
  });

  it('`..` out of the folder, to a secret beside it', () => {
    const { file } = brandFolder({ firm_name: 'Test Firm', managers: '../secret.env' });
    expect(refused(file)).toMatch(/managers: cannot read \S*secret\.env: is outside the folder the brand's files must be in/);
  });

  it('a link inside the folder that leads out of it (to the secret, and to /etc/passwd)', () => {
    const { dir, file } = brandFolder({ firm_name: 'Test Firm', logo: 'logo-link.png' });
    symlinkSync(join(dir, '..', 'secret.env'), join(dir, 'managers-link.csv'));
    symlinkSync('/etc/passwd', join(dir, 'logo-link.png'));
    expect(refused(file)).toMatch(/logo: cannot read \S*logo-link\.png: is a link to a file outside the folder the brand's files must be in/);
    writeBrand(dir, { firm_name: 'Test Firm', managers: 'managers-link.csv' });
    expect(refused(file)).toMatch(/managers: cannot read \S*managers-link\.csv: is a link to a file outside/);
  });

  it('a link that stays inside the folder is followed', () => {
    const { dir, file } = brandFolder({ firm_name: 'Test Firm', logo: 'current-logo.svg' });
    symlinkSync('logo.svg', join(dir, 'current-logo.svg'));
    expect(loadBrand(file).logo!.width).toBe(800);
  });

  it('/dev/zero (through a link, or allowed by --brand-root /) and a FIFO are refused at once, never read', () => {
    const { dir, file } = brandFolder({ firm_name: 'Test Firm', logo: 'zero.png' });
    symlinkSync('/dev/zero', join(dir, 'zero.png'));
    expect(refused(file)).toMatch(/logo: cannot read \S*zero\.png: is a link to a file outside/);
    writeBrand(dir, { firm_name: 'Test Firm', logo: '/dev/zero' });
    expect(refused(file, '/')).toMatch(/logo: cannot read \/dev\/zero: is not a regular file \(a device\); not read/);
    execFileSync('mkfifo', [join(dir, 'pipe.svg')]);
    writeBrand(dir, { firm_name: 'Test Firm', logo: 'pipe.svg' });
    // No writer ever opens the FIFO: a reader that waited on it would never return (the test's own timeout would fail it).
    expect(refused(file)).toMatch(/logo: cannot read \S*pipe\.svg: is not a regular file \(a FIFO\); not read/);
  });

  it('a file far larger than any logo is refused by its size, not read', () => {
    const { dir, file } = brandFolder({ firm_name: 'Test Firm', logo: 'vast.png' });
    writeFileSync(join(dir, 'vast.png'), '');
    truncateSync(join(dir, 'vast.png'), 2 ** 33); // 8 GB, sparse
    expect(refused(file)).toMatch(/logo: cannot read \S*vast\.png: is 8589934592 bytes, more than the 8388608 allowed; not read/);
  });

  it('the brand file itself: a FIFO, /dev/zero, or a secret that is not JSON — refused, not quoted', () => {
    const { dir, parent } = brandFolder({ firm_name: 'Test Firm' });
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    expect(refused(join(dir, 'fifo.json'))).toMatch(/cannot read the brand file \S*fifo\.json: is not a regular file \(a FIFO\)/);
    expect(refused('/dev/zero')).toMatch(/cannot read the brand file \/dev\/zero: is not a regular file \(a device\)/);
    expect(refused(join(parent, 'secret.env'))).toMatch(/the brand file \S*secret\.env is not a JSON document \(it does not start with \{\); a brand file is a JSON object of brand keys/);
    expect(refused('/etc/passwd')).toMatch(/the brand file \/etc\/passwd is not a JSON document/);
  });
});

describe('--brand-root: an administrator allows another folder, and absolute paths inside it', () => {
  it('a shared logo folder beside the brand file’s, by a relative or an absolute path', () => {
    const { parent, dir, file } = brandFolder({ firm_name: 'Test Firm' });
    mkdirSync(join(parent, 'shared'));
    copyFileSync(join(ROOT, 'examples/brand/logo.png'), join(parent, 'shared', 'logo.png'));
    writeBrand(dir, { firm_name: 'Test Firm', logo: '../shared/logo.png', logo_dark: join(parent, 'shared', 'logo.png') });
    expect(refused(file)).toMatch(/logo: cannot read \S*shared\/logo\.png: is outside the folder/);
    const brand = loadBrand(file, ROOT, { root: parent });
    expect(brand.logo!.width).toBe(brand.logoDark!.width);
    // Outside the root still refused: the secret is in the root, /etc is not.
    writeBrand(dir, { firm_name: 'Test Firm', managers: '/etc/passwd' });
    expect(refused(file, parent)).toMatch(/managers: cannot read \/etc\/passwd: is outside the folder the brand's files must be in; they stay inside the brand root/);
  });

  it('/etc/passwd allowed by --brand-root / is read but never quoted: not a csv of managers, not an image', () => {
    const { dir, file } = brandFolder({ firm_name: 'Test Firm', managers: '/etc/passwd' });
    expect(refused(file, '/')).toMatch(/managers: \/etc\/passwd must start with the header row portfolio,name,email,phone \(its first row is something else\)/);
    writeBrand(dir, { firm_name: 'Test Firm', logo: '/etc/passwd' });
    expect(refused(file, '/')).toMatch(/logo: \/etc\/passwd is neither a PNG nor an SVG image/);
  });

  it('a managers csv with a secret in it: the error names the row, not the value', () => {
    const { dir, file } = brandFolder({ firm_name: 'Test Firm', managers: 'm.csv' });
    writeFileSync(join(dir, 'm.csv'), `portfolio,name,email,phone\nA,Ann,${SECRET},1\n`);
    expect(refused(file)).toMatch(/managers: \S*m\.csv row 2: email is not an email address/);
    writeFileSync(join(dir, 'm.csv'), `portfolio,name,email,phone\n"${SECRET}\n`);
    expect(refused(file)).toMatch(/managers: \S*m\.csv is not a csv that can be read/);
  });

  it('a --brand-root that does not exist is refused', () => {
    const { file } = brandFolder({ firm_name: 'Test Firm' });
    expect(refused(file, '/nowhere/at/all')).toMatch(/--brand-root: the brand root \/nowhere\/at\/all is not a folder that exists/);
  });

  it('the add-in host: ADDIN_BRAND_ROOT as --brand-root', () => {
    const { parent, dir, file } = brandFolder({ firm_name: 'Test Firm' });
    mkdirSync(join(parent, 'shared'));
    copyFileSync(join(ROOT, 'examples/brand/logo.png'), join(parent, 'shared', 'logo.png'));
    writeBrand(dir, { firm_name: 'Test Firm', logo: '../shared/logo.png' });
    expect(() => hostConfigFromEnv({ ADDIN_BRAND_FILE: file })).toThrow(HostConfigError);
    expect(() => hostConfigFromEnv({ ADDIN_BRAND_FILE: file })).toThrow(/ADDIN_BRAND_FILE: brand file \S+: logo: cannot read \S*shared\/logo\.png: is outside the folder/);
    expect(hostConfigFromEnv({ ADDIN_BRAND_FILE: file, ADDIN_BRAND_ROOT: parent }).brand!.logo!.width).toBeGreaterThan(0);
  });
});

describe('fonts are read whole at the check', () => {
  it('a font with a damaged table is refused, naming the table', () => {
    const dir = tempDir('svc-brand-font-');
    const bytes = readFileSync(join(ROOT, 'reports/fonts/DejaVuSansCondensed.ttf'));
    // The post table's first bytes overwritten: its version is one fontkit does not know.
    const tables = bytes.readUInt16BE(4);
    for (let i = 0; i < tables; i++) {
      const entry = 12 + 16 * i;
      if (bytes.toString('latin1', entry, entry + 4) === 'post') bytes.fill(0xff, bytes.readUInt32BE(entry + 8), bytes.readUInt32BE(entry + 8) + 64);
    }
    writeFileSync(join(dir, 'Damaged.ttf'), bytes);
    const file = writeBrand(dir, { firm_name: 'Test Firm', font_regular: 'Damaged.ttf' });
    expect(refused(file)).toMatch(/font_regular: \S*Damaged\.ttf is a font whose post table cannot be read \(the file is damaged\)/);
  });

  it('a sound font passes (its licence aside)', () => {
    const dir = tempDir('svc-brand-font-ok-');
    restrictedFont(dir, 0x0000, 'Fine.ttf');
    expect(loadBrand(writeBrand(dir, { firm_name: 'Test Firm', font_bold: 'Fine.ttf' })).fontBold!.bytes.length).toBeGreaterThan(100_000);
  });
});

describe('did you mean (issue 34)', () => {
  it('primary_color → primary_colour; a key like no brand key gets none', () => {
    const { file } = brandFolder({ firm_name: 'Test Firm', primary_color: '#123456' });
    expect(refused(file)).toMatch(/primary_color \(did you mean primary_colour\?\): not a brand key; the keys are firm_name, logo/);
    const other = brandFolder({ firm_name: 'Test Firm', watermark: 'x' });
    expect(refused(other.file)).toMatch(/: watermark: not a brand key; the keys are/);
  });
});

describe('through the commands: exit 2, the key and file named, nothing quoted, nothing written', () => {
  it('run --brand with /etc/passwd as managers; brand check with a FIFO logo; brand check --brand-root / with /etc/passwd', async () => {
    const holdings = join(ROOT, 'examples/meridian-wealth-clients.csv');
    const a = brandFolder({ firm_name: 'Test Firm', managers: '/etc/passwd' });
    const b = brandFolder({ firm_name: 'Test Firm', logo: 'pipe.svg' });
    execFileSync('mkfifo', [join(b.dir, 'pipe.svg')]);
    const out = join(a.parent, 'out');
    const [run, fifo, rooted] = await Promise.all([
      runCli(['run', holdings, '--brand', a.file, '--out', out, '--as-of', '2026-10-31']),
      runCli(['brand', 'check', b.file, '--out', join(b.parent, 'preview.pdf')]),
      runCli(['brand', 'check', a.file, '--brand-root', '/', '--out', join(a.parent, 'preview.pdf')]),
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/managers: cannot read \/etc\/passwd: is an absolute path/);
    expect(fifo.code, fifo.stderr).toBe(2);
    expect(fifo.stderr).toMatch(/logo: cannot read \S*pipe\.svg: is not a regular file \(a FIFO\)/);
    expect(rooted.code, rooted.stderr).toBe(2);
    expect(rooted.stderr).toMatch(/managers: \/etc\/passwd must start with the header row/);
    for (const r of [run, fifo, rooted]) expect(r.stderr + r.stdout).not.toMatch(/root:x|\n\s+at /);
    expect(existsSync(out) ? readdirSync(out) : 'absent').toBe('absent');
    expect(existsSync(join(a.parent, 'preview.pdf')) || existsSync(join(b.parent, 'preview.pdf'))).toBe(false);
  }, 120_000);
});
