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
  // In a file, not inline: the host's content-security policy allows no inline script, for test pages too.
  await fs.writeFile(path.join(distDir, 'cf-standin.js'), CUSTOM_FUNCTIONS_STANDIN);
  await fs.writeFile(path.join(distDir, 'cf-standin.html'), `<!doctype html><html><head><meta charset="utf-8"><script src="cf-standin.js"></script><script src="functions.js"></script></head><body>custom functions stand-in</body></html>`);

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

/**
 * Stands in for the Excel process, and only for it: Microsoft's own runtime files
 * (office.js, which loads excel-web-16.00.js with its custom-functions runtime) run
 * unmodified in the add-in's page; this script is the other end of the RichApi native bridge
 * that excel-web-16.00.js itself connects to at load (`_richApiNativeBridge`). It delivers
 * invocations and cancellations the way the runtime reads them (message type 3, entries of
 * category 1, types 1000/1001) and answers the runtime's ProcessQuery requests, recording
 * every SetInvocationArrayResults it is sent. `__invoke`, `__cancel`, `__results` drive it.
 */
export const EXCEL_BRIDGE = `
(function () {
  var results = {};
  var listeners = [];
  var nextInvocation = 1;
  var nextMessage = 1000000;
  window.__bridgeRequests = 0;
  function record(id, r) {
    (results[id] = results[id] || []).push(r);
    listeners.slice().forEach(function (l) { l(); });
  }
  function deliver(entries) {
    window._richApiNativeBridge.onMessageFromHost(JSON.stringify({ type: 3, id: nextMessage++, message: { entries: entries } }));
  }
  window._richApiNativeBridge = {
    sendMessageToHost: function (text) {
      var m = JSON.parse(text);
      if (m.type !== 1) return;
      window.__bridgeRequests++;
      var body = typeof m.message.body === 'string' ? JSON.parse(m.message.body) : m.message.body;
      var actions = (body && body.Actions) || [];
      actions.forEach(function (a) {
        if (a.Name !== 'SetInvocationArrayResults') return;
        a.ArgumentInfo.Arguments[0].forEach(function (r) {
          // [id, true, value, outbound] or [id, false, message, errorCode, outbound]
          record(r[0], r[1] ? { ok: true, value: r[2] } : { ok: false, message: r[2], errorCode: r[3] });
        });
      });
      var bridge = this;
      setTimeout(function () {
        bridge.onMessageFromHost(JSON.stringify({ id: m.id, type: 1, message: { statusCode: 200, headers: {}, body: JSON.stringify({ Results: actions.map(function (a) { return { ActionId: a.Id, Value: null }; }) }) } }));
      }, 0);
    },
  };
  /** cells: [{ name, args, flags, address }] in one message, as Excel sends a recalculation's burst; returns their invocation ids. */
  window.__invoke = function (cells) {
    var ids = [];
    deliver(cells.map(function (c) {
      var id = nextInvocation++;
      ids.push(id);
      return [1, 1000, 0, [id, c.name, c.args, c.address || 'Sheet1!A1', c.flags], 0];
    }));
    return ids;
  };
  window.__cancel = function (ids) {
    deliver(ids.map(function (id) { return [1, 1001, 0, { invocationId: id }, 0]; }));
  };
  /** Resolves with the results set for each id once each has at least \`count\` of them. */
  window.__results = function (ids, count) {
    count = count || 1;
    return new Promise(function (resolve) {
      function check() {
        if (ids.every(function (id) { return (results[id] || []).length >= count; })) {
          listeners.splice(listeners.indexOf(check), 1);
          resolve(ids.map(function (id) { return results[id].slice(); }));
        }
      }
      listeners.push(check);
      check();
    });
  };
  window.__resultCount = function (id) { return (results[id] || []).length; };
})();
`;

/** Query the host page passes to the add-in's frame, as Excel on the web does: host Excel, platform Web, shared runtime and custom functions flags. */
export const EXCEL_WEB_HOST_INFO = '_host_Info=Excel$Web$16.01$en-US$test$$disableLogging$3';

/**
 * excel-web.html stands in for Excel on the web's own page: it frames the add-in's shared
 * runtime page with the host information in the URL, exactly where Excel on the web puts it
 * (`_host_Info` in the query, `_xdm_Info` in the fragment), so office.js chooses and loads
 * excel-web-16.00.js. cf-runtime.html is the built page with the bridge added before office.js.
 */
export async function writeExcelRuntimePages(distDir: string): Promise<void> {
  await fs.writeFile(path.join(distDir, 'excel-bridge.js'), EXCEL_BRIDGE);
  const pane = await fs.readFile(path.join(distDir, 'taskpane.html'), 'utf8');
  const officeJs = `<script src="${OFFICE_JS_CDN}"></script>`;
  if (!pane.includes(officeJs)) throw new Error('taskpane.html no longer loads office.js from the CDN as expected');
  await fs.writeFile(path.join(distDir, 'cf-runtime.html'), pane.replace(officeJs, `<script src="excel-bridge.js"></script>${officeJs}`));
  await fs.writeFile(path.join(distDir, 'excel-web.js'), `document.getElementById('addin').src = 'cf-runtime.html?${EXCEL_WEB_HOST_INFO}#&_xdm_Info=test-conversation$svc-addin$' + encodeURIComponent(location.origin) + '&_serializer_version=1';`);
  await fs.writeFile(path.join(distDir, 'excel-web.html'), '<!doctype html><html><head><meta charset="utf-8"><title>Excel on the web (stand-in)</title></head><body><iframe id="addin" name="addin" width="400" height="600"></iframe><script src="excel-web.js"></script></body></html>');
}
