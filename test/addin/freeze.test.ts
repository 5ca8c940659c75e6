import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ServiceClient } from '../../src/client';
import { startSandbox, DEMO_ACCOUNTS, type RunningSandbox } from '../../src/sandbox';
import type { Valuation } from '../../src/wire';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';
import { moneyFormat } from '../../addin/src/shared/cell-values';
import { freezeFormulas, restoreFormulas } from '../../addin/src/taskpane/freeze';
import { confirmationKey, FreezeError, planFreeze, SOURCES_HEADER, SOURCES_SHEET, type FrozenCell } from '../../addin/src/taskpane/freeze-plan';
import { FROZEN_NAMESPACE, parseFrozen, serializeFrozen } from '../../addin/src/taskpane/freeze-xml';
import { FakeSheet, FakeWorkbookState, installFakeExcel } from '../../fixtures/fake-excel';
import { openXlsx, saveXlsx } from './freeze-xlsx';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { libreOfficeConvert } from '../report-writers/tools';

const run = promisify(execFile);

const SHEET = 'Q3 holdings';
const CARDS = "Clients' view";
const SVC_CELLS = 500;

let sandbox: RunningSandbox;
let dir: string;
let ids: string[];
let mids: Map<string, number>;
let scores: Map<string, number>;
let card: Valuation;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  dir = await mkdtemp(path.join(tmpdir(), 'svc-freeze-'));
  const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
  ids = await realCatalogueIds(sandbox.url, account, 100);
  const client = new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, rateLimitKey: 'freeze-test' });
  const answers = await client.valueAll(ids.map((id) => requestForAssetId(holdingForAssetId('asset', id))));
  mids = new Map();
  scores = new Map();
  answers.forEach((a, i) => {
    if (!a.ok) throw a.error;
    mids.set(ids[i]!, a.value.estimated_value.mid);
    scores.set(ids[i]!, a.value.service_score);
  });
  card = await client.valuations.create({ ...requestForAssetId(holdingForAssetId('asset', ids[7]!)), currency: 'USD' });
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const usd = (v: number) => ({ type: 'FormattedNumber', basicValue: v, numberFormat: moneyFormat('USD') });
const serial = (iso: string) => Date.parse(iso) / 86_400_000 + 25569;

/**
 * A workbook as Excel holds it after calculating: 500 SVC formulas with their values — 496
 * MIDVALUE cells, one SCORE inside IF, one formula with a CRLF line break and XML's special
 * characters, a VALUATION row spilling over seven cells, and a card on a sheet whose name needs
 * quoting — plus formulas that are not SVC's (a SUM, and a text literal that merely mentions SVC).
 */
function calculatedWorkbook(): { state: FakeWorkbookState; formulas: Map<string, string> } {
  const state = new FakeWorkbookState();
  const s = new FakeSheet(SHEET);
  const formulas = new Map<string, string>();
  const svc = (sheet: FakeSheet, r: number, c: number, formula: string, value: unknown, json?: unknown, spill?: { rows: number; columns: number }) => {
    sheet.set(r, c, { formula, value, json, spill });
    formulas.set(`${sheet.name}!${r},${c}`, formula);
  };
  s.set(0, 0, { value: 'asset_id' });
  s.set(0, 1, { value: 'mid' });
  for (let r = 1; r <= 496; r++) {
    const id = ids[(r - 1) % ids.length]!;
    s.set(r, 0, { value: id });
    svc(s, r, 1, `=SVC.MIDVALUE(A${r + 1})`, mids.get(id)!, usd(mids.get(id)!));
  }
  s.set(497, 0, { value: ids[3]! });
  svc(s, 497, 1, '=IF(A498="","",SVC.SCORE(A498))', scores.get(ids[3]!)!);
  s.set(498, 0, { value: ids[4]! });
  const tricky = `=IF(LEN("a<b & c>d ""q""")>0,\r\n  SVC.MIDVALUE(A499, "USD"),\n\t0)`;
  svc(s, 498, 1, tricky, mids.get(ids[4]!)!, usd(mids.get(ids[4]!)!));
  // A VALUATION row spilling D2:J2; the cells it spills into hold values and no formula.
  const id0 = ids[0]!;
  const row = [mids.get(id0)! * 0.9, mids.get(id0)!, mids.get(id0)! * 1.1, 'USD', 0.8, scores.get(id0)!, id0];
  svc(s, 1, 3, '=SVC.VALUATION(A2)', row[0], usd(row[0] as number), { rows: 1, columns: 7 });
  row.slice(1).forEach((v, i) => s.set(1, 4 + i, { value: v, json: i < 2 ? usd(v as number) : undefined }));
  s.set(1, 11, { value: 123, formula: '=SUM(B2:B497)' });
  s.set(9, 11, { value: 'SVC.MIDVALUE(x) & <tag>', formula: '="SVC.MIDVALUE(x) & <tag>"' });
  const cards = new FakeSheet(CARDS);
  cards.set(1, 0, { value: ids[7]! });
  const cardJson = {
    type: 'Entity',
    text: `${card.brand} ${card.model}`,
    properties: {
      Mid: usd(card.estimated_value.mid),
      Currency: { type: 'String', basicValue: card.estimated_value.currency },
      'Asset id': { type: 'String', basicValue: card.asset_id },
      'As of': { type: 'FormattedNumber', basicValue: serial(card.generated_at), numberFormat: 'yyyy-mm-dd hh:mm "UTC"' },
    },
  };
  svc(cards, 1, 1, '=SVC.ASSET(A2)', cardJson.text, cardJson);
  state.sheets.push(s, cards);
  expect(formulas.size).toBe(SVC_CELLS);
  return { state, formulas };
}

async function python(script: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run('/usr/bin/python3', ['-c', script, ...args], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout);
}

/** openpyxl's view of a saved workbook: every formula left, the sheet names, and each sheet's values. */
const OPENPYXL = `
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
out = {"sheets": wb.sheetnames, "formulas": [], "values": {}}
for ws in wb.worksheets:
    for row in ws.iter_rows():
        for c in row:
            if c.data_type == "f":
                out["formulas"].append([ws.title, c.coordinate, str(c.value)])
    out["values"][ws.title] = [[c.value for c in row] for row in ws.iter_rows()]
print(json.dumps(out, default=str))
`;

/** The custom XML parts of the package (read with zipfile), and the formulas ElementTree finds in ours. */
const PARTS = `
import json, sys, zipfile, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1])
parts = [n for n in z.namelist() if n.startswith("customXml/item") and not n.startswith("customXml/itemProps")]
ns = sys.argv[2]
cells = []
for n in parts:
    root = ET.fromstring(z.read(n))
    if root.tag != "{%s}frozen" % ns:
        continue
    for c in root.findall("{%s}cell" % ns):
        cells.append([c.get("sheet"), int(c.get("row")), int(c.get("column")), c.find("{%s}formula" % ns).text])
    open(sys.argv[3], "wb").write(z.read(n))
print(json.dumps({"parts": parts, "cells": cells}))
`;

function formulasOf(state: FakeWorkbookState): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of state.sheets) for (const [k, c] of s.cells) if (c.formula !== null) out.set(`${s.name}!${k}`, c.formula);
  return out;
}

describe('freeze for sharing, then restore (500 SVC cells, saved with exceljs, read by openpyxl and xmllint)', () => {
  it('freezes every SVC formula to its value with a sources sheet and the custom XML part, and restores every formula byte for byte', async () => {
    const { state, formulas } = calculatedWorkbook();
    const before = formulasOf(state);
    installFakeExcel(state);
    const now = new Date('2026-11-23T10:00:00.000Z');
    const r = await freezeFormulas('workbook', now);
    expect(r).toEqual({ frozen: SVC_CELLS, total: SVC_CELLS });

    const frozenFile = path.join(dir, 'frozen.xlsx');
    await writeFile(frozenFile, await saveXlsx(state));
    const book = (await python(OPENPYXL, frozenFile)) as { sheets: string[]; formulas: [string, string, string][]; values: Record<string, unknown[][]> };
    // Values and no SVC formula; the two formulas that are not SVC's are untouched.
    expect(book.formulas.filter((f) => /SVC\./i.test(f[2]) && !f[2].startsWith('="'))).toEqual([]);
    expect(book.formulas.map((f) => f.slice(0, 2))).toEqual([
      [SHEET, 'L2'],
      [SHEET, 'L10'],
    ]);
    const main = book.values[SHEET]!;
    for (let r = 1; r <= 496; r++) expect(main[r]![1]).toBe(mids.get(ids[(r - 1) % ids.length]!));
    expect(main[497]![1]).toBe(scores.get(ids[3]!));
    expect(main[1]!.slice(3, 10)).toEqual([mids.get(ids[0]!)! * 0.9, mids.get(ids[0]!), mids.get(ids[0]!)! * 1.1, 'USD', 0.8, scores.get(ids[0]!), ids[0]]);
    expect(book.values[CARDS]![1]![1]).toBe(`${card.brand} ${card.model}`);

    // The sources sheet: a header and one row per frozen cell; formulas kept as text.
    expect(book.sheets).toContain(SOURCES_SHEET);
    const sources = book.values[SOURCES_SHEET]!;
    expect(sources[0]).toEqual([...SOURCES_HEADER]);
    expect(sources).toHaveLength(SVC_CELLS + 1);
    expect(sources[1]).toEqual([`'${SHEET}'!B2`, '=SVC.MIDVALUE(A2)', mids.get(ids[0]!), 'USD', ids[0], now.toISOString()]);
    const cardRow = sources.find((row) => row[0] === `'Clients'' view'!B2`)!;
    expect(cardRow).toEqual([`'Clients'' view'!B2`, '=SVC.ASSET(A2)', `${card.brand} ${card.model}`, 'USD', card.asset_id, new Date(Math.round(Date.parse(card.generated_at))).toISOString()]);

    // LibreOffice, which has no add-in, opens it with values and no #NAME? (its CSV of the first sheet shows what a reader sees).
    const csv = await readFile((await libreOfficeConvert(frozenFile, 'csv', dir)).path, 'utf8');
    expect(csv).not.toMatch(/#NAME\?/);
    const csvRows = csv.trim().split('\n');
    expect(csvRows).toHaveLength(499);
    expect(csvRows.slice(1, 497).map((line) => Number(line.split(',')[1]))).toEqual(Array.from({ length: 496 }, (_, i) => mids.get(ids[i % ids.length]!)));

    // The custom XML part: in the package, well-formed (xmllint), our namespace, one <cell> per frozen formula.
    const partFile = path.join(dir, 'part.xml');
    const parts = (await python(PARTS, frozenFile, FROZEN_NAMESPACE, partFile)) as { parts: string[]; cells: [string, number, number, string][] };
    expect(parts.parts).toEqual(['customXml/item1.xml']);
    await run('xmllint', ['--noout', partFile]);
    expect((await run('xmllint', ['--xpath', 'namespace-uri(/*)', partFile])).stdout.trim()).toBe(FROZEN_NAMESPACE);
    expect((await run('xmllint', ['--xpath', "count(/*[local-name()='frozen']/*[local-name()='cell'])", partFile])).stdout.trim()).toBe(String(SVC_CELLS));
    // An independent XML parser reads every formula back exactly, the CRLF one included.
    expect(new Map(parts.cells.map(([sheet, row, column, f]) => [`${sheet}!${row},${column}`, f]))).toEqual(formulas);

    // Restore from the saved file itself: every formula back byte for byte; the sources sheet and the part gone.
    const reopened = await openXlsx(await readFile(frozenFile));
    installFakeExcel(reopened);
    // SVC's own formulas come back at once; the two that also call IF and LEN wait for the user's word (issue 29).
    const first = await restoreFormulas(now);
    expect(first).toMatchObject({ restored: SVC_CELLS - 2, changed: [] });
    expect(first.others.map((o) => [o.address, o.outside])).toEqual([
      [`'${SHEET}'!B498`, ['IF']],
      [`'${SHEET}'!B499`, ['IF', 'LEN']],
    ]);
    const restored = await restoreFormulas(now, new Set(first.others.map(confirmationKey)));
    expect(restored).toEqual({ restored: 2, changed: [], others: [] });
    expect(formulasOf(reopened)).toEqual(before);
    for (const [key, f] of formulas) {
      const [sheet, rc] = key.split('!') as [string, string];
      const [row, col] = rc.split(',').map(Number) as [number, number];
      expect(reopened.sheet(sheet).get(row, col)!.formula).toBe(f);
    }
    expect(reopened.sheets.map((s) => s.name)).toEqual([SHEET, CARDS]);
    expect(reopened.parts).toEqual([]);
    // The cells the VALUATION row spilled into are empty again, so it can spill (no #SPILL!); formats as before.
    expect([4, 5, 6, 7, 8, 9].map((c) => reopened.sheet(SHEET).get(1, c)?.value ?? '')).toEqual(['', '', '', '', '', '']);
    expect(reopened.sheet(SHEET).get(1, 1)!.format).toBe('General');
  });

  it('freezes the selection only, adds a later freeze to the same record, and leaves cells changed since then as they are', async () => {
    const { state, formulas } = calculatedWorkbook();
    // Excel before ExcelApi 1.16 (no valuesAsJson): the sources sheet is written as typed text.
    installFakeExcel(state, false);
    state.selection = { sheet: SHEET, row: 1, column: 1, rows: 10, columns: 1 };
    expect(await freezeFormulas('selection')).toEqual({ frozen: 10, total: 10 });
    expect(state.sheet(SHEET).get(11, 1)!.formula).toBe('=SVC.MIDVALUE(A12)');
    expect(state.sheet(SHEET).get(10, 1)!.formula).toBeNull();
    expect(await freezeFormulas('workbook')).toEqual({ frozen: SVC_CELLS - 10, total: SVC_CELLS });
    expect(state.parts).toHaveLength(1);
    expect(parseFrozen(state.parts[0]!.xml)).toHaveLength(SVC_CELLS);
    // The user types over a frozen value: restoring must not overwrite it.
    state.sheet(SHEET).set(2, 1, { value: 42 });
    const r = await restoreFormulas();
    expect(r).toMatchObject({ restored: SVC_CELLS - 3, changed: [`'${SHEET}'!B3`] });
    expect(await restoreFormulas(undefined, new Set(r.others.map(confirmationKey)))).toEqual({ restored: 2, changed: [`'${SHEET}'!B3`], others: [] });
    expect(state.sheet(SHEET).get(2, 1)).toMatchObject({ formula: null, value: 42 });
    const after = formulasOf(state);
    for (const [k, f] of formulas) if (k !== `${SHEET}!2,1`) expect(after.get(k)).toBe(f);
    // The one cell not restored stays recorded, in the part and the sources sheet.
    expect(parseFrozen(state.parts[0]!.xml).map((c) => [c.row, c.column])).toEqual([[2, 1]]);
    expect(state.sheet(SOURCES_SHEET).get(1, 0)).toMatchObject({ formula: null, value: `'${SHEET}'!B3` });
    expect(state.sheet(SOURCES_SHEET).get(1, 1)).toMatchObject({ formula: null, value: '=SVC.MIDVALUE(A3)' });
    state.selection = { sheet: SHEET, row: 0, column: 0, rows: 5, columns: 1 };
    await expect(freezeFormulas('selection')).rejects.toThrow(/The selection holds no SVC formula/);
  });

  it('refuses to freeze while a cell is still calculating, naming it', () => {
    const s = { name: 'Sheet1', rowIndex: 0, columnIndex: 0, formulas: [['=SVC.SCORE("SVC-X")']], values: [['#BUSY!']], numberFormat: [['General']] };
    expect(() => planFreeze([s], { now: new Date() })).toThrow(new FreezeError('Sheet1!A1 is still calculating (#BUSY!): wait until every SVC cell shows its value, then freeze again.'));
  });

  it('keeps any formula text through the XML part, refuses characters XML cannot hold, and reads only its own namespace', () => {
    const base: FrozenCell = { sheet: `a "b" <c> & 'd'`, row: 3, column: 4, rows: 1, columns: 2, formula: '', formats: [['General', '0.0%']], value: 'x\ty', currency: 'EUR', assetId: 'SVC-A', asOf: '2026-11-23T00:00:00.000Z' };
    const nasty = ['=SVC.MIDVALUE("a&b<c>d")', '=A1\r\n+SVC.SCORE(B1)\r', '=SVC.SCORE(" x ")&"]]>"', '=SVC.SCORE("Château d’Yquem 🍷")', '=\t SVC.SCORE(A1)\n'];
    const cells = nasty.map((formula, i) => ({ ...base, row: i, formula }));
    expect(parseFrozen(serializeFrozen(cells, new Date()))).toEqual(cells);
    expect(() => serializeFrozen([{ ...base, formula: '=SVC.SCORE("\u0001")' }], new Date())).toThrow(FreezeError);
    expect(() => parseFrozen(`<frozen xmlns="urn:someone-else"><cell/></frozen>`)).toThrow(/not SVC's frozen formulas/);
    expect(() => parseFrozen(`<frozen xmlns="${FROZEN_NAMESPACE}"><cell>`)).toThrow(/damaged/);
  });
});
