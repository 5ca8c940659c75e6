/** File names cannot escape the out dir, and a failed write never leaves a half report under the final name. */
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Holding, ReportData, ReportFormat } from '../../reports/report-data';
import { pathInside, reportFileName, slugify, writeReport } from '../../reports/writers';
import { writeAtomically } from '../../reports/writers/atomic-write';
import { streamTextFile } from '../../reports/writers/chunked-writer';
import { makeReportData } from '../../fixtures/report-data';
import { tempDir } from './tools';

describe('safe file names', () => {
  it('slugs names to lower-case a-z0-9 and hyphens', () => {
    expect(slugify('Whitcombe Family Collection')).toBe('whitcombe-family-collection');
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
    expect(slugify('..')).toBe('portfolio');
    expect(slugify('  ')).toBe('portfolio');
    expect(slugify('C:\\Windows\\system32')).toBe('c-windows-system32');
    expect(slugify('Hermès & Cartier — 2026')).toBe('hermes-cartier-2026');
    expect(slugify('x'.repeat(300))).toHaveLength(80);
  });

  it('refuses a file name that is not plain', () => {
    const dir = tempDir('inside');
    expect(pathInside(dir, 'report.csv')).toBe(path.join(dir, 'report.csv'));
    for (const bad of ['../report.csv', '/etc/passwd', 'a/b.csv', '.hidden', '', '..']) {
      expect(() => pathInside(dir, bad), bad).toThrow(/not a plain file name inside the output folder/);
    }
  });

  it('writes a report named "../../x" inside the out dir only', async () => {
    const root = tempDir('escape');
    const out = path.join(root, 'a', 'b', 'out');
    const data = makeReportData({ holdings: 3, portfolioName: '../../x' });
    data.cover.as_of = '../../2026-10-31';
    const written = await writeReport(data, out, ['csv', 'json']);
    expect(written.map((w) => path.dirname(w.path))).toEqual([out, out]);
    expect(readdirSync(out).sort()).toEqual(['x-2026-10-31.csv', 'x-2026-10-31.json']);
    expect(readdirSync(path.join(root, 'a'))).toEqual(['b']);
    expect(reportFileName(data, 'pdf')).toBe('x-2026-10-31.pdf');
  });

  it('refuses an unknown format with the allowed list', async () => {
    await expect(writeReport(makeReportData({ holdings: 1 }), tempDir('fmt'), ['docx' as ReportFormat])).rejects.toThrow(
      'Unknown report format "docx": allowed formats are xlsx, csv, json, pdf, html.',
    );
  });
});

/** Holdings that fail part-way, as a crash in the middle of a large export would. */
function failingHalfway(data: ReportData): ReportData {
  const rows = [...data.holdings] as Holding[];
  return {
    ...data,
    holdings: {
      *[Symbol.iterator]() {
        yield* rows.slice(0, Math.floor(rows.length / 2));
        throw new Error('disk on fire');
      },
    },
  };
}

describe('atomic writes', () => {
  it('renames only a complete file over the final name', async () => {
    const dir = tempDir('atomic');
    const final = path.join(dir, 'r.txt');
    writeFileSync(final, 'previous month');
    await expect(
      writeAtomically(final, async (tmp) => {
        writeFileSync(tmp, 'half a rep');
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect(readFileSync(final, 'utf8')).toBe('previous month');
    expect(readdirSync(dir)).toEqual(['r.txt']);
    await writeAtomically(final, async (tmp) => writeFileSync(tmp, 'new month'));
    expect(readFileSync(final, 'utf8')).toBe('new month');
    expect(readdirSync(dir)).toEqual(['r.txt']);
  });

  it.each(['csv', 'json', 'xlsx', 'pdf'] as const)('a %s writer failing mid-way leaves neither a report nor a temporary file', async (format) => {
    const dir = tempDir(`crash-${format}`);
    mkdirSync(dir, { recursive: true });
    await expect(writeReport(failingHalfway(makeReportData({ holdings: 40 })), dir, [format])).rejects.toThrow('disk on fire');
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(path.join(dir, `whitcombe-family-collection-2026-10-31.${format}`))).toBe(false);
  });
});

/** Files this process holds open inside `dir` (Linux /proc). */
function openFilesIn(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // closed between listing and reading
    }
  });
}

describe('a streamed writer that fails', () => {
  it('has closed and removed its temporary file by the time its promise rejects (no race with a stream still opening)', async () => {
    // Repeated: before the fix the stream was never closed, and its open could land after the removal.
    for (let i = 0; i < 20; i++) {
      const dir = tempDir(`stream-fail-${i}`);
      await expect(
        streamTextFile(path.join(dir, 'r.csv'), async () => {
          throw new Error('disk on fire');
        }),
      ).rejects.toThrow('disk on fire');
      expect(openFilesIn(dir)).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
