import { promises as fs } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { OFFICE_JS_CDN } from '../../addin/server/office-js';

/**
 * Test pages placed beside a fresh build, so the host serves them from the add-in's origin.
 *
 * cf-standin.html stands in for Excel's custom-functions host: it provides CustomFunctions
 * (Error, ErrorCode, associate, recording every association), loads the built functions.js,
 * and `__invoke(id, args)` calls a function as Excel does: omitted optional arguments as null,
 * then the invocation object (cancel hook, value-preview flag, setResult for streaming).
 *
 * taskpane-standin.html is the built task pane with office.js replaced by office-addin-mock's
 * Excel object model (bundled for the browser) around a holdings table held in the page.
 */
const CUSTOM_FUNCTIONS_STANDIN = `
window.__associated = {};
window.CustomFunctions = {
  ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A', divisionByZero: '#DIV/0!', invalidNumber: '#NUM!', nullReference: '#NULL!', invalidName: '#NAME?', invalidReference: '#REF!' },
  Error: class CustomFunctionsError { constructor(code, message) { this.code = code; this.message = message; } },
  associate(id, fn) {
    if (typeof id === 'object') Object.assign(window.__associated, id); else window.__associated[id] = fn;
  },
};
window.__metadata = fetch('functions.json').then((r) => r.json());
const toResult = (v) => v instanceof window.CustomFunctions.Error ? { ok: false, code: v.code, message: v.message } : { ok: true, value: v };
window.__invoke = async (id, args, options = {}) => {
  const meta = (await window.__metadata).functions.find((f) => f.id === id);
  const fn = window.__associated[id];
  if (!meta || !fn) return { ok: false, code: '#NAME?', message: 'not associated: ' + id };
  const full = meta.parameters.map((_, i) => (args[i] === undefined ? null : args[i]));
  const invocation = { address: options.address || 'Sheet1!A1', functionName: id, isInValuePreview: !!options.preview };
  if (meta.options && meta.options.stream) {
    return new Promise((resolve) => {
      invocation.setResult = (v) => resolve(toResult(v));
      fn(...full, invocation);
    });
  }
  try {
    const p = fn(...full, invocation);
    if (options.cancelAfterMs !== undefined) setTimeout(() => invocation.onCanceled && invocation.onCanceled(), options.cancelAfterMs);
    return toResult(await p);
  } catch (e) {
    return toResult(e);
  }
};
`;

const EXCEL_STANDIN = `
(function () {
  const grid = window.__holdingsGrid;
  const written = (window.__written = []);
  const range = (r, c, rows, cols) => {
    const out = { values: [], numberFormat: [], address: 'Holdings!R' + (r + 1) + 'C' + (c + 1) + ':R' + (r + rows) + 'C' + (c + cols), format: { autofitColumns() {}, font: {} }, load() { return out; } };
    written.push({ r, c, rows, cols, range: out });
    return out;
  };
  const data = {
    host: 'excel',
    context: {
      workbook: {
        selected: {
          used: { isNullObject: false, values: grid, rowIndex: 0, columnIndex: 0, rowCount: grid.length, columnCount: grid[0].length, worksheet: { name: 'Holdings' } },
          getUsedRangeOrNullObject() { return this.used; },
        },
        getSelectedRange() { return this.selected; },
        worksheets: {
          holdings: { getRangeByIndexes: range, activate() {} },
          getItem() { return this.holdings; },
          getItemOrNullObject(name) { return { isNullObject: !['Holdings', 'Market dashboard'].includes(name), load() {} }; },
          add(name) { window.__addedSheet = name; return this.holdings; },
        },
        application: { calculate(type) { window.__calculated = type; } },
      },
    },
    run: async function (callback) { return callback(this.context); },
    CalculationType: { full: 'Full' },
  };
  window.Excel = new OfficeAddinMock.OfficeMockObject(data);
  window.Office = { onReady(cb) { setTimeout(() => cb({ host: 'Excel', platform: 'PC' }), 0); return Promise.resolve({ host: 'Excel' }); } };
})();
`;

export async function writeStandinPages(distDir: string): Promise<void> {
  await fs.writeFile(path.join(distDir, 'cf-standin.html'), `<!doctype html><html><head><meta charset="utf-8"><script>${CUSTOM_FUNCTIONS_STANDIN}</script><script src="functions.js"></script></head><body>custom functions stand-in</body></html>`);

  await build({
    stdin: { contents: `export { OfficeMockObject } from 'office-addin-mock';`, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName: 'OfficeAddinMock',
    platform: 'browser',
    outfile: path.join(distDir, 'office-mock.js'),
    logLevel: 'silent',
    plugins: [
      {
        // The mock reads only the OfficeApp enum from office-addin-manifest, whose other code is Node-only.
        name: 'office-app-enum',
        setup(b) {
          b.onResolve({ filter: /^office-addin-manifest$/ }, () => ({ path: 'office-app-enum', namespace: 'stub' }));
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
            contents: `export const OfficeApp = { Excel: 'excel', OneNote: 'onenote', Outlook: 'outlook', PowerPoint: 'powerpoint', Project: 'project', Word: 'word' };`,
            loader: 'js',
          }));
        },
      },
    ],
  });
  await fs.writeFile(path.join(distDir, 'excel-standin.js'), EXCEL_STANDIN);
  const pane = await fs.readFile(path.join(distDir, 'taskpane.html'), 'utf8');
  const standin = pane.replace(`<script src="${OFFICE_JS_CDN}"></script>`, '<script src="holdings.js"></script><script src="office-mock.js"></script><script src="excel-standin.js"></script>');
  if (standin === pane) throw new Error('taskpane.html no longer loads office.js from the CDN as expected');
  await fs.writeFile(path.join(distDir, 'taskpane-standin.html'), standin);
}

export async function writeHoldings(distDir: string, grid: unknown[][]): Promise<void> {
  await fs.writeFile(path.join(distDir, 'holdings.js'), `window.__holdingsGrid = ${JSON.stringify(grid)};`);
}
