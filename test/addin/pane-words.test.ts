import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n';
import { formatDuration, formatShare } from '../../addin/src/taskpane/budget';
import { staleCellsText } from '../../addin/src/taskpane/offline-setting';
import { storageNoticeText } from '../../addin/src/taskpane/storage-notice';
import { dashboardBlocks } from '../../addin/src/taskpane/dashboard';

/**
 * The pane's event sentences that the browser test does not reach (stale cells when the service
 * is unreachable, the storage notice, the market dashboard's sheet words) and the budget's
 * figures, in de, ja and ar by the language's rules; English exactly as before the catalogue.
 */
const de = translator('de');
const ja = translator('ja');
const ar = translator('ar');
const en = translator('en');

describe('offline and storage sentences', () => {
  it('English is unchanged', () => {
    expect(staleCellsText(0, en)).toBe('');
    expect(staleCellsText(1, en)).toBe('1 cell shows a last known value: the valuation service cannot be reached.');
    expect(staleCellsText(1234, en)).toBe('1,234 cells show last known values: the valuation service cannot be reached.');
    expect(storageNoticeText({ kept: false, refusal: { kind: 'refused', error: 'QuotaExceededError' } }, en)).toBe(
      'Answers cannot be kept on this computer: the browser refused to store them (QuotaExceededError). Values are fetched afresh each time; last known values are not available offline.',
    );
  });

  it('in German, Japanese and Arabic: the language’s plural and digits, no English', () => {
    expect(staleCellsText(1, de)).toBe('1 Zelle zeigt einen zuletzt bekannten Wert: Der Bewertungsdienst ist nicht erreichbar.');
    expect(staleCellsText(1234, de)).toBe('1.234 Zellen zeigen zuletzt bekannte Werte: Der Bewertungsdienst ist nicht erreichbar.');
    expect(staleCellsText(3, ja)).toBe('3 個のセルに最後に確認された値が表示されています。評価サービスに接続できません。');
    expect(staleCellsText(3, ar)).toContain(ar.number(3));
    for (const tr of [de, ja, ar]) {
      const notice = storageNoticeText({ kept: false, refusal: { kind: 'blocked' } }, tr);
      expect(notice).not.toMatch(/the browser|cannot be kept|available offline|third-party|fetched afresh/i);
      expect(notice).toContain(tr.t('addin.storage_blocked'));
    }
  });
});

describe("the budget's figures", () => {
  it('English is unchanged', () => {
    expect([formatDuration(0.4, en), formatDuration(42.4, en), formatDuration(150, en)]).toEqual(['under a second', 'about 42 s', 'about 2 min 30 s']);
    expect([formatShare(0.014, en), formatShare(0.25, en), formatShare(0.0000001, en), formatShare(null, en), formatShare(Infinity, en)]).toEqual(['1.4%', '25%', '<0.1%', 'unknown', 'nothing is left today']);
  });

  it("the language's percent and words", () => {
    const percent = (locale: string, v: number) => new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1 }).format(v);
    expect(formatShare(0.014, de)).toBe(percent('de', 0.014));
    expect(formatShare(0.014, de)).toMatch(/^1,4\s%$/);
    expect(formatShare(0.0000001, de)).toBe(`<${percent('de', 0.001)}`);
    expect(formatShare(0.014, ja)).toBe('1.4%');
    expect(formatShare(0.0000001, ja)).toBe('0.1% 未満');
    expect(formatDuration(150, de)).toBe('etwa 2 min 30 s');
    expect(formatDuration(150, ja)).toBe('約 2 分 30 秒');
    expect(formatShare(0.014, ar)).toBe(percent('ar', 0.014));
  });
});

describe('the market dashboard sheet', () => {
  it('titles and headers in the language; the alerts block keeps SVC.ALERTS’ own header names', () => {
    const blocks = dashboardBlocks([], [], de);
    expect(blocks.map((b) => b.title)).toEqual(['Segmentsignale', 'Größte Veränderungen (30 Tage)', 'Aktive Markthinweise']);
    expect(blocks[0]!.headers).toContain('Preistrend');
    expect(blocks[2]!.rows).toEqual([['', '', 'Keine aktiven Markthinweise', '', '']]);
    expect(dashboardBlocks([], [], en).map((b) => b.title)).toEqual(['Segment signals', 'Top movers (30 days)', 'Active alerts']);
    expect(dashboardBlocks([], [], en)[0]!.headers).toEqual(['segment', 'name', 'price trend', 'change 7d', 'change 30d', 'change 90d', 'momentum', 'strength', 'sentiment', 'volume']);
  });
});
