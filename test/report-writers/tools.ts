/** External tools the writer tests read files back with (poppler, LibreOffice), run without a shell. */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';

const run = promisify(execFile);

export async function pdfText(file: string, layout = false): Promise<string> {
  const { stdout } = await run('pdftotext', [...(layout ? ['-layout'] : []), '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

export async function pdfInfo(file: string): Promise<Record<string, string>> {
  const { stdout } = await run('pdfinfo', [file]);
  return Object.fromEntries(stdout.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
}

export async function pdfFonts(file: string): Promise<string> {
  return (await run('pdffonts', [file])).stdout;
}

/**
 * Converts with LibreOffice headless into outDir, with its default import options (no --infilter); a private profile per call, so parallel
 * test files never share (and lock) one. Resolves to the converted file's path. `recalculate`: every formula of an xlsx is
 * recomputed on loading (LibreOffice's default keeps the results the file holds). Several files convert in one start of LibreOffice.
 */
export async function libreOfficeConvert(file: string | readonly string[], format: 'pdf' | 'csv' | 'xlsx', outDir: string, options: { recalculate?: boolean } = {}): Promise<{ path: string; paths: string[]; stderr: string }> {
  const profile = tempDir('lo-profile');
  if (options.recalculate) {
    mkdirSync(path.join(profile, 'user'), { recursive: true });
    writeFileSync(path.join(profile, 'user', 'registrymodifications.xcu'), RECALCULATE_ON_LOAD);
  }
  const files = typeof file === 'string' ? [file] : [...file];
  const { stderr } = await run(
    'libreoffice',
    [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', '--convert-to', format, '--outdir', outDir, ...files],
    { timeout: 90_000 * files.length },
  );
  const paths = files.map((f) => path.join(outDir, `${path.basename(f, path.extname(f))}.${format}`));
  return { path: paths[0]!, paths, stderr };
}

/** LibreOffice's setting "recalculation on file load" for Excel files: 0, always. */
const RECALCULATE_ON_LOAD = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`;

const created: string[] = [];
// Test output is read back within its test file; nothing is kept after the file's tests
// (this module is loaded once per test file, so the hook belongs to that file).
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `rw-${prefix}-`));
  created.push(dir);
  return dir;
}

/** PDF text with runs of whitespace folded, so a phrase matches whatever line breaks pdftotext chose. */
export function folded(text: string): string {
  return text.replace(/\s+/g, ' ');
}
