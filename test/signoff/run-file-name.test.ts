/**
 * The one rule for a name a run's manifest lists (reports/signoff/run-file-name.ts): a plain file
 * name inside the folder. Pure for the names; the link/FIFO half is tried through the commands in
 * confinement.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { plainNameProblem, quotedName } from '../../reports/signoff/run-file-name';

describe('a manifest entry must be a plain file name', () => {
  it('accepts what a run writes', () => {
    for (const name of ['okafor-household-2026-10-31.pdf', 'okafor-household-2026-10-31-realised-gains.csv', 'consolidated-2026-10-31.json', 'Ökafor.pdf']) expect(plainNameProblem(name), name).toBeUndefined();
  });

  it.each([
    ['../../victim/important-2026-10-31.pdf', 'contains a path separator'],
    ['/etc/passwd', 'is an absolute path'],
    ['C:\\Windows\\x.pdf', 'is an absolute path'],
    ['sub\\x.pdf', 'contains a path separator'],
    ['..', 'contains ".."'],
    ['x..pdf', 'contains ".."'],
    ['x\0.pdf', 'holds a NUL character'],
    ['.', 'is not a file name'],
    ['', 'is not a file name'],
  ])('refuses %j: %s', (name, problem) => {
    expect(plainNameProblem(name)).toBe(problem);
  });

  it('quotes a name in errors cut short, as JSON (control characters escaped)', () => {
    expect(quotedName('a\nb')).toBe('"a\\nb"');
    expect(quotedName('x'.repeat(500)).length).toBeLessThan(130);
  });
});
