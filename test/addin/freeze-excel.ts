/**
 * A small in-memory stand-in for the part of Excel's object model freeze.ts uses (worksheets,
 * used ranges, values/formulas/numberFormat, spills, custom XML parts), with Office.js's
 * discipline where it matters: a loaded property can be read only after `ctx.sync()`, a
 * ClientResult's value likewise, and a string starting with "=" assigned to `values` becomes a
 * formula unless the cell is text-formatted ("@"), as in Excel.
 */

export interface FakeCell {
  formula: string | null;
  value: unknown;
  format: string;
  /** valuesAsJson for this cell (formatted numbers, cards), when it differs from the plain value. */
  json?: unknown;
  /** The block this formula spills into. */
  spill?: { rows: number; columns: number };
}

export class FakeSheet {
  readonly cells = new Map<string, FakeCell>();
  constructor(public name: string) {}
  get(r: number, c: number): FakeCell | undefined {
    return this.cells.get(`${r},${c}`);
  }
  set(r: number, c: number, cell: Partial<FakeCell>): void {
    const old = this.get(r, c) ?? { formula: null, value: '', format: 'General' };
    this.cells.set(`${r},${c}`, { ...old, ...cell });
  }
  bounds(): { row: number; column: number; rows: number; columns: number } | undefined {
    const keys = [...this.cells.entries()].filter(([, v]) => v.formula !== null || v.value !== '' || v.format !== 'General').map(([k]) => k.split(',').map(Number) as [number, number]);
    if (keys.length === 0) return undefined;
    const rows = keys.map((k) => k[0]);
    const cols = keys.map((k) => k[1]);
    const row = Math.min(...rows);
    const column = Math.min(...cols);
    return { row, column, rows: Math.max(...rows) - row + 1, columns: Math.max(...cols) - column + 1 };
  }
}

export class FakeWorkbookState {
  sheets: FakeSheet[] = [];
  parts: { id: number; namespace: string; xml: string }[] = [];
  selection: { sheet: string; row: number; column: number; rows: number; columns: number } | undefined;
  syncs = 0;
  private nextPart = 1;
  addPart(xml: string): void {
    const namespace = /xmlns="([^"]*)"/.exec(xml)?.[1] ?? '';
    this.parts.push({ id: this.nextPart++, namespace, xml });
  }
  sheet(name: string): FakeSheet {
    const s = this.sheets.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!s) throw new Error(`ItemNotFound: no sheet ${name}`);
    return s;
  }
}

/** An object whose listed properties become readable only after load() and a sync. */
class Loadable {
  private requested = new Set<string>();
  private ready = new Set<string>();
  constructor(protected readonly ctx: FakeContext) {
    ctx.pending.push(() => {
      for (const p of this.requested) this.ready.add(p);
    });
  }
  load(props?: string | string[]): this {
    for (const p of typeof props === 'string' ? props.split(',') : props ?? []) this.requested.add(p.trim());
    return this;
  }
  protected loaded<T>(name: string, read: () => T): T {
    if (!this.ready.has(name)) throw new Error(`PropertyNotLoaded: ${name} read before load() and sync()`);
    return read();
  }
}

class FakeRange extends Loadable {
  constructor(ctx: FakeContext, private readonly sheet: FakeSheet | undefined, private readonly r0: number, private readonly c0: number, private readonly nRows: number, private readonly nCols: number) {
    super(ctx);
  }
  private grid<T>(read: (cell: FakeCell | undefined) => T): T[][] {
    return Array.from({ length: this.nRows }, (_, r) => Array.from({ length: this.nCols }, (_, c) => read(this.sheet!.get(this.r0 + r, this.c0 + c))));
  }
  private write(block: unknown[][], apply: (r: number, c: number, v: unknown) => void): void {
    if (block.length !== this.nRows || block.some((l) => l.length !== this.nCols)) throw new Error(`InvalidArgument: ${block.length}×${block[0]?.length} written to ${this.nRows}×${this.nCols}`);
    // Office.js queues writes and applies them at the next sync, in order.
    this.ctx.pending.push(() => block.forEach((line, r) => line.forEach((v, c) => apply(this.r0 + r, this.c0 + c, v))));
  }
  get isNullObject() {
    return this.loaded('isNullObject', () => this.sheet === undefined);
  }
  get rowIndex() {
    return this.loaded('rowIndex', () => this.r0);
  }
  get columnIndex() {
    return this.loaded('columnIndex', () => this.c0);
  }
  get rowCount() {
    return this.loaded('rowCount', () => this.nRows);
  }
  get columnCount() {
    return this.loaded('columnCount', () => this.nCols);
  }
  get worksheet() {
    return new FakeWorksheet(this.ctx, this.sheet!);
  }
  get formulas(): unknown[][] {
    return this.loaded('formulas', () => this.grid((x) => x?.formula ?? x?.value ?? ''));
  }
  set formulas(block: unknown[][]) {
    this.write(block, (r, c, v) => {
      const f = String(v);
      this.sheet!.set(r, c, f.startsWith('=') ? { formula: f, value: null, json: undefined } : { formula: null, value: v, json: undefined });
    });
  }
  get values(): unknown[][] {
    return this.loaded('values', () => this.grid((x) => x?.value ?? ''));
  }
  set values(block: unknown[][]) {
    this.write(block, (r, c, v) => {
      const cell = this.sheet!.get(r, c);
      const asFormula = typeof v === 'string' && v.startsWith('=') && cell?.format !== '@';
      this.sheet!.set(r, c, asFormula ? { formula: v, value: null, json: undefined, spill: undefined } : { formula: null, value: v, json: undefined, spill: undefined });
    });
  }
  get numberFormat(): unknown[][] {
    return this.loaded('numberFormat', () => this.grid((x) => x?.format ?? 'General'));
  }
  set numberFormat(block: unknown[][]) {
    this.write(block, (r, c, v) => this.sheet!.set(r, c, { format: String(v) }));
  }
  get valuesAsJson(): unknown[][] {
    return this.loaded('valuesAsJson', () => this.grid((x) => x?.json ?? { type: typeof x?.value === 'number' ? 'Double' : 'String', basicValue: x?.value ?? '' }));
  }
  get format() {
    return { autofitColumns() {} };
  }
  getSpillingToRangeOrNullObject(): FakeRange {
    const spill = this.sheet!.get(this.r0, this.c0)?.spill;
    return spill ? new FakeRange(this.ctx, this.sheet, this.r0, this.c0, spill.rows, spill.columns) : new FakeRange(this.ctx, undefined, 0, 0, 0, 0);
  }
}

class FakeWorksheet extends Loadable {
  constructor(ctx: FakeContext, readonly sheet: FakeSheet | undefined) {
    super(ctx);
  }
  get name() {
    return this.sheet!.name;
  }
  get isNullObject() {
    return this.loaded('isNullObject', () => this.sheet === undefined);
  }
  getUsedRangeOrNullObject(): FakeRange {
    const b = this.sheet!.bounds();
    return b ? new FakeRange(this.ctx, this.sheet, b.row, b.column, b.rows, b.columns) : new FakeRange(this.ctx, undefined, 0, 0, 0, 0);
  }
  getRangeByIndexes(r: number, c: number, rows: number, cols: number): FakeRange {
    return new FakeRange(this.ctx, this.sheet, r, c, rows, cols);
  }
  delete(): void {
    const s = this.sheet!;
    this.ctx.pending.push(() => (this.ctx.state.sheets = this.ctx.state.sheets.filter((x) => x !== s)));
  }
}

class FakeContext {
  pending: (() => void)[] = [];
  constructor(readonly state: FakeWorkbookState) {}
  async sync(): Promise<void> {
    this.state.syncs++;
    for (const f of this.pending.splice(0)) f();
  }
  get workbook() {
    const ctx = this;
    const state = this.state;
    return {
      worksheets: {
        get items() {
          return state.sheets.map((s) => new FakeWorksheet(ctx, s));
        },
        load() {},
        getItem: (name: string) => new FakeWorksheet(ctx, state.sheet(name)),
        getItemOrNullObject: (name: string) => new FakeWorksheet(ctx, state.sheets.find((s) => s.name.toLowerCase() === name.toLowerCase())),
        add: (name: string) => {
          // Queued like every other change: a delete of the same name earlier in the batch goes first.
          const s = new FakeSheet(name);
          ctx.pending.push(() => {
            if (state.sheets.some((x) => x.name.toLowerCase() === name.toLowerCase())) throw new Error(`ItemAlreadyExists: ${name}`);
            state.sheets.push(s);
          });
          return new FakeWorksheet(ctx, s);
        },
      },
      getSelectedRange: () => {
        const sel = state.selection!;
        return new FakeRange(ctx, state.sheet(sel.sheet), sel.row, sel.column, sel.rows, sel.columns);
      },
      customXmlParts: {
        add: (xml: string) => ctx.pending.push(() => state.addPart(xml)),
        getByNamespace: (ns: string) => {
          const found = state.parts.filter((p) => p.namespace === ns);
          return {
            load() {},
            items: found.map((p) => ({
              getXml: () => {
                const result: { value: string } = {
                  get value(): string {
                    if (!ready) throw new Error('ClientResult read before sync()');
                    return p.xml;
                  },
                };
                let ready = false;
                ctx.pending.push(() => (ready = true));
                return result;
              },
              delete: () => ctx.pending.push(() => (state.parts = state.parts.filter((x) => x !== p))),
            })),
          };
        },
      },
    };
  }
}

/** Installs `Excel` (run, CalculationType) and `Office` (requirements) globals over the state. */
export function installFakeExcel(state: FakeWorkbookState, valuesAsJson = true): void {
  const g = globalThis as unknown as Record<string, unknown>;
  g.Excel = {
    run: async <T>(batch: (ctx: FakeContext) => Promise<T>) => {
      const ctx = new FakeContext(state);
      const out = await batch(ctx);
      await ctx.sync();
      return out;
    },
  };
  g.Office = { context: { requirements: { isSetSupported: (set: string, version: string) => set === 'ExcelApi' && (valuesAsJson || Number(version) < 1.16) } } };
}
