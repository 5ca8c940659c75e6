import { describe, expect, it } from 'vitest';
import type { MachineStorage } from '../../addin/src/dispatcher/machine-storage';
import { MemoryStorage, SafeStorage, type StorageScope, type SyncStorage } from '../../addin/src/shared/safe-storage';
import { msalCacheLocation } from '../../addin/src/shared/sign-in';
import { storageNoticeText } from '../../addin/src/taskpane/storage-notice';
import { AddinRuntime } from '../../addin/src/shared/runtime';
import type { RuntimeBackend } from '../../addin/src/shared/backend';

/**
 * The one module every storage use goes through (addin/src/shared/safe-storage.ts), with the
 * page's globals stood in for: a blocking browser throws a SecurityError on merely reading
 * `localStorage`/`sessionStorage`, and OfficeRuntime.storage (kept in localStorage) rejects.
 */
const denied = () => new DOMException('denied', 'SecurityError');

/** A scope whose getters throw as a browser blocking third-party storage does, counting the reads. */
function blockedScope(office?: MachineStorage) {
  const reads = { localStorage: 0, sessionStorage: 0 };
  const scope: StorageScope = {
    get localStorage(): SyncStorage {
      reads.localStorage++;
      throw denied();
    },
    get sessionStorage(): SyncStorage {
      reads.sessionStorage++;
      throw denied();
    },
    OfficeRuntime: office ? { storage: office } : undefined,
  };
  return { scope, reads };
}

const rejecting: MachineStorage = {
  getItem: () => Promise.reject(denied()),
  setItem: () => Promise.reject(denied()),
  removeItem: () => Promise.reject(denied()),
};

/** OfficeRuntime.storage as it behaves where it works: asynchronous, over its own items. */
function officeStore(): MachineStorage & { items: MemoryStorage } {
  const items = new MemoryStorage();
  return {
    items,
    getItem: async (k) => items.getItem(k),
    setItem: async (k, v) => items.setItem(k, v),
    removeItem: async (k) => items.removeItem(k),
  };
}

describe('safe storage: availability found once', () => {
  it('reads each page store once, however often it is asked', () => {
    const { scope, reads } = blockedScope();
    const safe = new SafeStorage(() => scope);
    for (let i = 0; i < 5; i++) {
      expect(safe.available('localStorage')).toBe(false);
      safe.page('sessionStorage').setItem('k', 'v');
      safe.page('sessionStorage').getItem('k');
    }
    expect(reads).toEqual({ localStorage: 1, sessionStorage: 1 });
  });

  it('chooses the machine store once: later uses do not probe again', async () => {
    const office = officeStore();
    let officeReads = 0;
    const scope: StorageScope = {
      get OfficeRuntime() {
        officeReads++;
        return { storage: office };
      },
    };
    const safe = new SafeStorage(() => scope);
    const machine = safe.machine();
    await Promise.all([machine.setItem('a', '1'), machine.setItem('b', '2'), safe.keeping(), safe.keeping()]);
    expect(officeReads).toBe(1);
  });
});

describe('safe storage: a SecurityError never escapes', () => {
  it('page stores work in memory for the session when the browser blocks them', () => {
    const { scope } = blockedScope();
    const safe = new SafeStorage(() => scope);
    expect(() => safe.page('localStorage').setItem('threshold', '12')).not.toThrow();
    expect(safe.page('localStorage').getItem('threshold')).toBe('12');
    safe.page('sessionStorage').setItem('svc-addin-deployment-key', 'k1');
    expect(safe.page('sessionStorage').getItem('svc-addin-deployment-key')).toBe('k1');
    // Each store its own memory: a session value is not a local one.
    expect(safe.page('localStorage').getItem('svc-addin-deployment-key')).toBeNull();
    safe.page('sessionStorage').removeItem('svc-addin-deployment-key');
    expect(safe.page('sessionStorage').getItem('svc-addin-deployment-key')).toBeNull();
  });

  it('the machine store falls back to memory and says the browser blocks storage', async () => {
    const { scope } = blockedScope(rejecting);
    const safe = new SafeStorage(() => scope);
    const machine = safe.machine();
    await expect(machine.setItem('svc-addin:answers:x', '[1]')).resolves.toBeUndefined();
    await expect(machine.getItem('svc-addin:answers:x')).resolves.toBe('[1]');
    await machine.removeItem('svc-addin:answers:x');
    await expect(machine.getItem('svc-addin:answers:x')).resolves.toBeNull();
    expect(await safe.keeping()).toEqual({ kept: false, refusal: { kind: 'blocked' } });
  });

  it('an OfficeRuntime global whose very read throws is a store that does not work', async () => {
    const scope: StorageScope = {
      get OfficeRuntime(): { storage: MachineStorage } {
        throw denied();
      },
      localStorage: new MemoryStorage(),
    };
    const safe = new SafeStorage(() => scope);
    expect(await safe.keeping()).toEqual({ kept: true, where: 'localStorage' });
  });

  it('a page store that worked but later refuses a write (quota) does not throw', () => {
    const full = new MemoryStorage();
    const scope: StorageScope = { localStorage: full };
    const safe = new SafeStorage(() => scope);
    expect(safe.available('localStorage')).toBe(true);
    full.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    expect(() => safe.page('localStorage').setItem('k', 'v')).not.toThrow();
  });

  it('a runtime on blocked storage keeps the offline setting for the session', async () => {
    const { scope } = blockedScope(rejecting);
    const safe = new SafeStorage(() => scope);
    const runtime = new AddinRuntime({} as RuntimeBackend, { storage: safe.machine() });
    expect(await runtime.useLastKnownWhenOffline()).toBe(false);
    await runtime.setUseLastKnownWhenOffline(true);
    const again = new AddinRuntime({} as RuntimeBackend, { storage: safe.machine() });
    expect(await again.useLastKnownWhenOffline()).toBe(true);
  });
});

describe('safe storage: fallback order', () => {
  it('OfficeRuntime.storage first, where it works', async () => {
    const office = officeStore();
    const local = new MemoryStorage();
    const safe = new SafeStorage(() => ({ OfficeRuntime: { storage: office }, localStorage: local }));
    await safe.machine().setItem('item', 'v');
    expect(office.items.getItem('item')).toBe('v');
    expect(local.getItem('item')).toBeNull();
    expect(await safe.keeping()).toEqual({ kept: true, where: 'OfficeRuntime.storage' });
  });

  it('then localStorage, where OfficeRuntime.storage is missing or refuses', async () => {
    for (const office of [undefined, rejecting]) {
      const local = new MemoryStorage();
      const safe = new SafeStorage(() => ({ OfficeRuntime: office ? { storage: office } : undefined, localStorage: local }));
      await safe.machine().setItem('item', 'v');
      expect(local.getItem('item')).toBe('v');
      expect(await safe.keeping()).toEqual({ kept: true, where: 'localStorage' });
    }
  });

  it('waits for the Office runtime before choosing (its script loads after the bundles)', async () => {
    const scope: { OfficeRuntime?: { storage: MachineStorage }; localStorage: SyncStorage } = { localStorage: new MemoryStorage() };
    const office = officeStore();
    let loaded!: () => void;
    const officeReady = new Promise<void>((resolve) => (loaded = resolve));
    const safe = new SafeStorage(() => scope, () => officeReady);
    const written = safe.machine().setItem('item', 'v');
    scope.OfficeRuntime = { storage: office };
    loaded();
    await written;
    expect(office.items.getItem('item')).toBe('v');
  });

  it('then memory, naming why: no store at all, or one that refuses with another error', async () => {
    const none = new SafeStorage(() => ({}));
    expect(await none.keeping()).toEqual({ kept: false, refusal: { kind: 'absent' } });
    const zeroQuota = new MemoryStorage();
    zeroQuota.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const refused = new SafeStorage(() => ({ localStorage: zeroQuota }));
    expect(await refused.keeping()).toEqual({ kept: false, refusal: { kind: 'refused', error: 'QuotaExceededError: The quota has been exceeded.' } });
  });
});

describe('what uses the safe storage', () => {
  it('MSAL keeps its cache in localStorage, else sessionStorage, else memory', () => {
    const withStores = (local: boolean, session: boolean) => ({ available: (n: 'localStorage' | 'sessionStorage') => (n === 'localStorage' ? local : session) });
    expect(msalCacheLocation(withStores(true, true))).toBe('localStorage');
    expect(msalCacheLocation(withStores(false, true))).toBe('sessionStorage');
    expect(msalCacheLocation(withStores(false, false))).toBe('memoryStorage');
  });

  it('the pane says plainly why answers cannot be kept, and nothing when they can', () => {
    expect(storageNoticeText({ kept: true, where: 'OfficeRuntime.storage' })).toBe('');
    expect(storageNoticeText({ kept: false, refusal: { kind: 'blocked' } })).toBe(
      'Answers cannot be kept on this computer: the browser blocks storage for add-ins (third-party storage). Values are fetched afresh each time; last known values are not available offline.',
    );
  });
});
