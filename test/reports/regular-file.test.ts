import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashRegularFile, readRegularFile, UnreadableFile } from '../../src/regular-file';

/** verify's reader of an untrusted folder (issue 29), on its own: what it reads and what it refuses unread. */
const dir = mkdtempSync(join(tmpdir(), 'regular-file-'));
const roomy = () => ({ maxBytes: 1 << 20, deadline: Date.now() + 60_000 });

describe('reading a file of an untrusted folder', () => {
  it('hashes a regular file', async () => {
    writeFileSync(join(dir, 'a.txt'), 'hello');
    expect(await hashRegularFile(join(dir, 'a.txt'), roomy())).toEqual({ sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824', bytes: 5 });
  });

  it.each([
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p]), /a FIFO/],
    ['a link to /dev/zero', (p: string) => symlinkSync('/dev/zero', p), /a symbolic link/],
    ['a link to a regular file', (p: string) => symlinkSync(join(dir, 'a.txt'), p), /a symbolic link/],
    ['a folder', (p: string) => execFileSync('mkdir', [p]), /a folder/],
  ])('refuses %s unread', async (name, make, kind) => {
    const p = join(dir, name.replace(/\W+/g, '-'));
    make(p);
    const read = readRegularFile(p, roomy());
    await expect(read).rejects.toBeInstanceOf(UnreadableFile);
    await expect(read).rejects.toThrow(kind);
  }, 10_000);

  it('refuses a file larger than allowed without reading it, and says missing for none', async () => {
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(101));
    await expect(readRegularFile(join(dir, 'big.txt'), { maxBytes: 100, deadline: Date.now() + 60_000 })).rejects.toThrow(/is 101 bytes, more than the 100 allowed; not read/);
    await expect(readRegularFile(join(dir, 'none.txt'), roomy())).rejects.toMatchObject({ kind: 'missing' });
  });

  it('stops at its deadline', async () => {
    writeFileSync(join(dir, 'late.txt'), 'x');
    await expect(readRegularFile(join(dir, 'late.txt'), { maxBytes: 100, deadline: Date.now() - 1 })).rejects.toThrow(/took longer than verify allows/);
  });
});
