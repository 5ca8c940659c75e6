import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportFileName, slugify, writeReport } from '../../reports/writers';
import { makeReportData } from '../../fixtures/report-data';
import { tempDir } from './tools';

describe('report file names in the portfolio\'s own script', () => {
  it('keeps the letters of every script and folds Latin accents', () => {
    expect(slugify('山田家')).toBe('山田家');
    expect(slugify('鈴木家')).toBe('鈴木家');
    expect(slugify('陳大文 家族')).toBe('陳大文-家族');
    expect(slugify('김철수 컬렉션')).toBe('김철수-컬렉션');
    expect(slugify('Смирнов и сыновья')).toBe('смирнов-и-сыновья');
    expect(slugify('Παπαδόπουλος')).toBe('παπαδοπουλος');
    expect(slugify('がぎぐ')).toBe('がぎぐ');
    expect(slugify('Hermès & Cartier — 2026')).toBe('hermes-cartier-2026');
  });

  it('replaces what is unsafe in a file name, invisible format characters included', () => {
    expect(slugify('山田/../家')).toBe('山田-家');
    expect(slugify('a\u200fb\u202ec')).toBe('a-b-c');
    expect(slugify('家族:*?"<>|')).toBe('家族');
  });

  it('stays within a file system name limit in bytes', () => {
    const slug = slugify('漢'.repeat(300));
    expect(Buffer.byteLength(slug)).toBeLessThanOrEqual(200);
    expect(Buffer.byteLength(reportFileName({ cover: { ...makeReportData({ holdings: 1 }).cover, portfolio_name: '漢'.repeat(300) } }, 'xlsx'))).toBeLessThan(255);
  });

  it('gives 山田家 and 鈴木家 different files, named in kanji', async () => {
    const dir = tempDir('names');
    for (const name of ['山田家', '鈴木家']) {
      const data = makeReportData({ holdings: 3 });
      await writeReport({ ...data, cover: { ...data.cover, portfolio_name: name } }, dir, ['csv']);
    }
    expect(readdirSync(dir).sort()).toEqual(['山田家-2026-10-31.csv', '鈴木家-2026-10-31.csv']);
  });
});
