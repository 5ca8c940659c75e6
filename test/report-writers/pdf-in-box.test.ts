/**
 * Wrapped text in a box of fixed height (issue 36: a longer language must not run below it): the
 * layout trace sees a line, or a line pdfkit would drop, below its box's bottom; a card's note too
 * long for the card's foot is shrunk, then cut with an ellipsis whose Span carries the whole note
 * as /ActualText; a total row is measured in the bold it is drawn in, so its wrapped cell stays in
 * its row. Read back with pdftotext.
 */
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { overflowing, type TracedText } from '../../reports/writers/pdf-layout-trace';
import { drawFigures } from '../../reports/writers/pdf-figure-cards';
import { drawTable } from '../../reports/writers/pdf-table';
import { pdfText, tempDir } from './tools';
import { recordDrawnSizes, tracedPages } from './traced-pages';

const LONG_NOTE = 'Spanne 36.822.817 $ bis 45.000.000 $ nach drei unabhängigen Schätzungen, Auktionsergebnissen der letzten zwölf Monate und dem Versicherungswert';

describe('the layout trace', () => {
  it('sees wrapped text below its box: the lines drawn there, and those pdfkit drops at the box\'s height', () => {
    const trace: TracedText[] = [];
    const p = tracedPages(trace);
    p.doc.font('sans').fontSize(9).text(LONG_NOTE, 60, 100, { width: 120, height: 20 });
    const found = overflowing(trace);
    // pdfkit drew what fit and dropped the rest unseen: the whole text, as drawn without the height, is below the box.
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((f) => f.includes("below the box's 120.0"))).toBe(true);
    expect(overflowing(trace.filter((t) => t.box.bottom === undefined))).toEqual([]);
  });
});

describe("a card's note too long for the card's foot", () => {
  it('is shrunk, then cut with its whole text in /ActualText, above the card\'s bottom', async () => {
    const trace: TracedText[] = [];
    const p = tracedPages(trace);
    const drawn = recordDrawnSizes(p);
    const top = p.doc.y;
    drawFigures(p, [{ label: 'Gesamtwert', value: '40.911.908 $', sub: LONG_NOTE }, { label: 'Positionen', value: '12', sub: 'in 8 Segmenten' }]);
    const file = path.join(tempDir('pdf-in-box'), 'cards.pdf');
    await p.finish(createWriteStream(file));

    const note = drawn.find((d) => d.text.startsWith('Spanne'))!;
    expect(note.text).toMatch(/^Spanne .*…$/);
    expect(note.size).toBe(6);
    expect(drawn.find((d) => d.text === 'in 8 Segmenten')!.size).toBe(7.5);
    // The note's lines and their box, the card's foot: its bottom 2 pt inside the card's (62 pt high).
    const lines = trace.filter((t) => t.box.bottom !== undefined && t.drawn > 0 && note.text.includes(t.text));
    expect(new Set(lines.map((t) => t.y)).size).toBe(2);
    expect(lines[0]!.box.bottom).toBeCloseTo(top + 60, 5);
    expect(overflowing(trace)).toEqual([]);
    const read = (await pdfText(file)).replace(/\s+/g, ' ');
    expect(read).toContain(LONG_NOTE);
    expect(read).not.toContain('…');
  });
});

describe('a total row', () => {
  it('is measured in bold: a cell that wraps only in bold stays in its row', async () => {
    const trace: TracedText[] = [];
    const p = tracedPages(trace);
    const total = 'Gesamt aller Positionen';
    p.doc.fontSize(8);
    const regular = p.doc.font('sans').widthOfString(total);
    const bold = p.doc.font('sansBold').widthOfString(total);
    expect(bold).toBeGreaterThan(regular + 2);
    // A column the regular face fits on one line and the bold does not.
    const width = (regular + bold) / 2 + 6;
    drawTable(p, [{ label: 'Position', width }, { label: 'Wert', width: 80, align: 'right' }], [['Uhr', '1'], ['Wein', '2']], { totalRow: [total, '3'] });
    await p.finish(createWriteStream(path.join(tempDir('pdf-in-box'), 'total.pdf')));
    const cell = trace.filter((t) => t.box.bottom !== undefined && t.drawn > 0 && total.includes(t.text));
    expect(new Set(cell.map((t) => t.y)).size).toBe(2);
    expect(overflowing(trace)).toEqual([]);
  });
});
