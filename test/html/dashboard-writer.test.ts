/**
 * The market dashboard as a web page (issue 38), read back with Python's html.parser: its
 * sections, the JSON dashboard's figures as the translator formats them, hostile service text as
 * text, nothing outside the file, the CSP's hashes, lang/dir, and fonts subset to the page.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n';
import type { DashboardData } from '../../reports/report-data';
import { writeDashboard } from '../../reports/writers';
import { makeDashboardData } from '../../fixtures/report-data';
import { tempDir } from '../report-writers/tools';
import { attributesOf, cellUnder, readPage, type ReadPage } from './page-reader';

const HOSTILE = '<svg onload=alert(1)>"\'&';

function hostileDashboard(language?: DashboardData['language']): DashboardData {
  const d = makeDashboardData();
  return {
    ...d,
    language,
    segments: d.segments.map((s, i) => (i === 0 ? { ...s, segment_name: `Segment ${HOSTILE}` } : s)),
    top_movers: d.top_movers.map((m, i) => (i === 0 ? { ...m, model: `Model ${HOSTILE}` } : m)),
    alerts: d.alerts.map((a) => ({ ...a, title: `Alert ${HOSTILE}`, message: `Message ${HOSTILE}` })),
    notes: [...d.notes, `Note ${HOSTILE}`],
  };
}

let json: { segments: { change_30d_percent: number | null; change_7d_percent: number | null }[] };
let file: string;
let page: ReadPage;
let arabic: ReadPage;

beforeAll(async () => {
  const written = await writeDashboard(hostileDashboard(), tempDir('html-dashboard'), ['json', 'html']);
  file = written.find((w) => w.format === 'html')!.path;
  json = JSON.parse(readFileSync(written.find((w) => w.format === 'json')!.path, 'utf8'));
  page = await readPage(file);
  const [ar] = await writeDashboard(hostileDashboard('ar'), tempDir('html-dashboard-ar'), ['html']);
  arabic = await readPage(ar!.path);
}, 120_000);

describe('the dashboard page', () => {
  it('has the signals with their chart, the movers, the alerts and the disclaimer', () => {
    const tr = translator('en');
    expect(page.headings.filter(([t]) => t === 'h1').map(([, text]) => text)).toEqual([tr.t('dashboard.title')]);
    expect(page.headings.filter(([t]) => t === 'h2').map(([, text]) => text)).toEqual([tr.t('dashboard.chart_title'), tr.t('dashboard.top_movers'), tr.t('dashboard.active_alerts'), tr.t('pdf.disclaimer')]);
    // The chart: focusable bars, each named by its segment and value; its figures as a table too.
    const bars = page.elements.filter((e) => e.tag === 'g' && e.attrs.some(([n, v]) => n === 'class' && v === 'chart-point'));
    expect(bars).toHaveLength(json.segments.length);
    for (const b of bars) expect(Object.fromEntries(b.attrs)).toMatchObject({ tabindex: '0', role: 'img' });
  });

  it("shows the JSON dashboard's changes as the translator formats them", () => {
    const tr = translator('en');
    const signals = page.tables.find((t) => t.caption === tr.t('dashboard.title'))!;
    expect(signals.rows).toHaveLength(json.segments.length);
    json.segments.forEach((s, i) => {
      expect(cellUnder(signals.rows[i]!, tr.t('columns.change_30d'))!.text).toBe(tr.percent(s.change_30d_percent, { digits: 1, signed: true }));
      expect(cellUnder(signals.rows[i]!, tr.t('columns.change_7d'))!.text).toBe(tr.percent(s.change_7d_percent, { digits: 1, signed: true }));
    });
  });

  it('keeps hostile service text as text, and refers to nothing outside the file', () => {
    for (const p of [page, arabic]) {
      expect(p.elements.filter((e) => e.tag === 'svg' && e.attrs.some(([n]) => n.startsWith('on')))).toEqual([]);
      expect(attributesOf(p).filter(([, name]) => name.startsWith('on'))).toEqual([]);
      for (const where of ['Segment', 'Model', 'Alert', 'Message', 'Note']) expect(p.text).toContain(`${where} ${HOSTILE}`);
    }
    expect(readFileSync(file, 'utf8')).not.toMatch(/https?:|(?:src|href)=["']?\/\//i);
  });

  it("has a CSP of its inline style's and script's hashes, lang/dir, and fonts of its characters only", () => {
    const policy = Object.fromEntries(page.elements.find((e) => e.tag === 'meta' && e.attrs.some(([, v]) => v === 'Content-Security-Policy'))!.attrs)['content']!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    expect(policy).toBe(`default-src 'none'; style-src ${hash(page.style[0]!)}; script-src ${hash(page.script[0]!)}; img-src data:; font-src data:; base-uri 'none'; form-action 'none'`);
    expect([page.lang, page.dir, arabic.lang, arabic.dir]).toEqual(['en-GB', 'ltr', 'ar', 'rtl']);
    const used = new Set([...arabic.text, ...attributesOf(arabic).flatMap(([, , v]) => [...v])].map((c) => c.codePointAt(0)!));
    const faces = [...arabic.style[0]!.matchAll(/url\(data:font\/woff2;base64,([A-Za-z0-9+/=]+)\)/g)].map((m) => fontkit.create(Buffer.from(m[1]!, 'base64')) as fontkit.Font);
    // The four house faces and the Arabic script's two.
    expect(faces).toHaveLength(6);
    for (const font of faces) expect(font.characterSet.filter((c) => !used.has(c) && c !== 0xffff), font.familyName).toEqual([]);
  });
});
