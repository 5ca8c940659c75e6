/**
 * A one-line text too long for its box (issue 36: a longer language): a table's header is shrunk
 * to fit, then cut with an ellipsis whose Span carries the whole header as /ActualText, so the
 * text layer (pdftotext, a screen reader) still reads all of it; nothing is drawn below the
 * header band (pdfkit's own `ellipsis` with `lineBreak: false` wrapped the rest onto the next line).
 */
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { overflowing, unbrokenWords, type TracedText } from '../../reports/writers/pdf-layout-trace';
import { drawTable } from '../../reports/writers/pdf-table';
import { pdfText, tempDir } from './tools';
import { recordDrawnSizes, tracedPages } from './traced-pages';

const LONG = 'Vermoegensverwaltungsgebuehren insgesamt';

describe("a table header longer than its column", () => {
  it('is shrunk, then cut with its whole text in /ActualText, on its one line', async () => {
    const trace: TracedText[] = [];
    const p = tracedPages(trace);
    const drawn = recordDrawnSizes(p);
    drawTable(p, [{ label: 'Datum', width: 60 }, { label: LONG, width: 44, align: 'right' }, { label: 'Gebühr', width: 60, align: 'right' }], [['31.10.2026', '1', '250,00']]);
    const file = path.join(tempDir('pdf-one-line'), 'table.pdf');
    await p.finish(createWriteStream(file));

    const header = drawn.find((d) => d.text.startsWith('Verm'))!;
    expect(header.text).toMatch(/^Verm\S*…$/);
    // Shrunk to the smallest cell size before it was cut; "Gebühr" fits and is drawn whole at the table's size.
    expect(header.size).toBe(5.5);
    expect(drawn.find((d) => d.text === 'Gebühr')!.size).toBe(8);
    expect(overflowing(trace)).toEqual([]);
    // The text layer reads the whole header (the Span's /ActualText), not the cut one.
    const read = (await pdfText(file)).replace(/\s+/g, ' ');
    expect(read).toContain(LONG);
    expect(read).not.toContain('…');
  });
});

describe('the words a cell must fit whole', () => {
  it('are split at spaces and after a hyphen before a letter; dates, signed numbers and a number with its unit stay one piece', () => {
    expect(unbrokenWords('Vermögens-verwaltung 2024-03-15 -21.0% +1690.9 % 12 bottles')).toEqual(['Vermögens-', 'verwaltung', '2024-03-15', '-21.0%', '+1690.9\u00a0%', '12', 'bottles']);
    // Chinese and Japanese break between characters (pdf-line-breaks.ts): nothing of theirs is one piece.
    expect(unbrokenWords('評価額 ポートフォリオ')).toEqual([]);
  });
});
