import { asyncStorage, type MachineStorage } from '../dispatcher/machine-storage';

/**
 * Every use of the browser's storage by the add-in goes through here. Excel on the web runs the
 * add-in in a cross-site frame; where the browser blocks third-party storage (Safari's default,
 * Firefox strict, Chrome with third-party cookies blocked) merely reading `window.localStorage`
 * or `window.sessionStorage` throws a SecurityError, and OfficeRuntime.storage (kept in
 * localStorage by excel-web-16.00.js) refuses too. One uncaught read kept the shared runtime from
 * starting, so nothing here throws: each store is tried once, and what does not work is replaced
 * by memory for the session. The add-in keeps nothing in indexedDB itself; MSAL's own use of it
 * falls back to memory inside MSAL (sign-in.ts picks its cache location from here).
 */

export type PageStorageName = 'localStorage' | 'sessionStorage';

/** The synchronous surface the pages use (the deployment key, the pane's threshold). */
export type SyncStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Why answers cannot be kept: the browser blocks the frame's storage, has none, or refused it otherwise. */
export type StorageRefusal = { kind: 'blocked' } | { kind: 'absent' } | { kind: 'refused'; error: string };

/** Whether answers and the offline setting outlive this session, and where they are kept. */
export type Keeping = { kept: true; where: 'OfficeRuntime.storage' | 'localStorage' } | { kept: false; refusal: StorageRefusal };

/** The globals read here: the page's window, or a stand-in in unit tests. Getters may throw. */
export interface StorageScope {
  readonly localStorage?: SyncStorage;
  readonly sessionStorage?: SyncStorage;
  readonly OfficeRuntime?: { storage?: MachineStorage };
}

/** A key written and removed to learn whether a store works (a store can exist yet refuse writes: Safari's old private mode). */
const PROBE_KEY = 'svc-addin-probe';

type Probe<S> = { ok: true; storage: S } | { ok: false; refusal: StorageRefusal };

function refusalOf(err: unknown): StorageRefusal {
  // DOMException is an Error in browsers but not in every runtime: read its name as a property.
  const { name, message } = typeof err === 'object' && err !== null ? (err as { name?: unknown; message?: unknown }) : {};
  if (name === 'SecurityError') return { kind: 'blocked' };
  return { kind: 'refused', error: typeof name === 'string' ? `${name}: ${String(message)}` : String(err) };
}

/** A store kept in memory: what replaces one the browser refuses, for as long as the page lives. */
export class MemoryStorage implements SyncStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** A working page store whose later failures (quota, storage cleared under it) are swallowed: these values matter for a session at most. */
function forgiving(storage: SyncStorage): SyncStorage {
  return {
    getItem: (key) => {
      try {
        return storage.getItem(key);
      } catch {
        return null;
      }
    },
    setItem: (key, value) => {
      try {
        storage.setItem(key, value);
      } catch {
        // kept for no one: the value holds only where the caller keeps it
      }
    },
    removeItem: (key) => {
      try {
        storage.removeItem(key);
      } catch {
        // nothing to remove where nothing could be kept
      }
    },
  };
}

export class SafeStorage {
  private readonly probes = new Map<PageStorageName, Probe<SyncStorage>>();
  private readonly memories = new Map<string, MemoryStorage>();
  private machineChoice: Promise<{ storage: MachineStorage; keeping: Keeping }> | undefined;

  /**
   * `scope` is read at first use, not construction: in Excel the runtime script that defines
   * OfficeRuntime loads after the bundles, so the machine store waits for `officeReady` too.
   */
  constructor(
    private readonly scope: () => StorageScope,
    private readonly officeReady: () => Promise<void> = async () => undefined,
  ) {}

  /** Whether the page's store works; found on the first ask and remembered for the page's life. */
  probe(name: PageStorageName): Probe<SyncStorage> {
    let probe = this.probes.get(name);
    if (!probe) {
      probe = probePage(() => this.scope()[name]);
      this.probes.set(name, probe);
    }
    return probe;
  }

  available(name: PageStorageName): boolean {
    return this.probe(name).ok;
  }

  /** The page's store where it works, else memory for the session; never throws. */
  page(name: PageStorageName): SyncStorage {
    const probe = this.probe(name);
    return probe.ok ? forgiving(probe.storage) : this.memory(name);
  }

  /**
   * Where answers and the offline setting are kept: OfficeRuntime.storage where the Office
   * runtime provides one that works (the shared runtime; 10 MB per add-in), else the page's
   * localStorage, else memory for the session. Chosen on first use; never rejects for want of a store.
   */
  machine(): MachineStorage {
    const chosen = async () => (await this.chooseMachine()).storage;
    return {
      getItem: async (key) => (await chosen()).getItem(key),
      setItem: async (key, value) => (await chosen()).setItem(key, value),
      removeItem: async (key) => (await chosen()).removeItem(key),
    };
  }

  /** Whether answers outlive the session, and if not why (the pane says it). */
  async keeping(): Promise<Keeping> {
    return (await this.chooseMachine()).keeping;
  }

  private chooseMachine(): Promise<{ storage: MachineStorage; keeping: Keeping }> {
    this.machineChoice ??= (async () => {
      await this.officeReady().catch(() => undefined);
      let office: MachineStorage | undefined;
      try {
        office = this.scope().OfficeRuntime?.storage;
      } catch {
        office = undefined;
      }
      const officeProbe = office ? await probeMachine(office) : undefined;
      if (officeProbe?.ok) return { storage: officeProbe.storage, keeping: { kept: true, where: 'OfficeRuntime.storage' } };
      const local = this.probe('localStorage');
      if (local.ok) return { storage: asyncStorage(local.storage), keeping: { kept: true, where: 'localStorage' } };
      // Neither keeps anything: memory, so the session still has its answers and setting.
      const refusal = local.refusal.kind === 'absent' && officeProbe && !officeProbe.ok ? officeProbe.refusal : local.refusal;
      return { storage: asyncStorage(this.memory('machine')), keeping: { kept: false, refusal } };
    })();
    return this.machineChoice;
  }

  private memory(name: string): MemoryStorage {
    let m = this.memories.get(name);
    if (!m) {
      m = new MemoryStorage();
      this.memories.set(name, m);
    }
    return m;
  }
}

function probePage(get: () => SyncStorage | undefined): Probe<SyncStorage> {
  try {
    const storage = get();
    if (!storage) return { ok: false, refusal: { kind: 'absent' } };
    storage.setItem(PROBE_KEY, PROBE_KEY);
    storage.removeItem(PROBE_KEY);
    return { ok: true, storage };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err) };
  }
}

async function probeMachine(storage: MachineStorage): Promise<Probe<MachineStorage>> {
  try {
    await storage.setItem(PROBE_KEY, PROBE_KEY);
    const read = await storage.getItem(PROBE_KEY);
    await storage.removeItem(PROBE_KEY);
    if (read !== PROBE_KEY) return { ok: false, refusal: { kind: 'refused', error: 'a written item did not read back' } };
    return { ok: true, storage };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err) };
  }
}

/**
 * The page's one SafeStorage, held on the page's global object: the functions and the task pane
 * are separate bundles in one page, each with its own copy of this module, and the stores must be
 * probed once and share their memory fallback (the deployment key one bundle keeps, the other reads).
 */
const PAGE_SAFE_STORAGE = '__svcSafeStorage';
type PageGlobal = { [PAGE_SAFE_STORAGE]?: SafeStorage };

export function pageSafeStorage(create: () => SafeStorage): SafeStorage {
  const g = globalThis as PageGlobal;
  g[PAGE_SAFE_STORAGE] ??= create();
  return g[PAGE_SAFE_STORAGE];
}
