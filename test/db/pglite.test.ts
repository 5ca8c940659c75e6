import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { killSpawned, spawnNode } from '../../fixtures/spawned';
import { DatabaseBusyError, defaultDatabasePath, HistoryDatabase, openDatabase, parseTarget } from '../../src/db';
import { compiledScript } from '../support/compiled-script';
import { databaseCases } from './cases';

const root = mkdtempSync(join(tmpdir(), 'svc-db-pglite-'));
let n = 0;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The second process (hold-folder.ts), compiled once rather than through tsx at each start. */
let holdFolder: Awaited<ReturnType<typeof compiledScript>> | undefined;
beforeAll(async () => {
  holdFolder = await compiledScript(join(__dirname, 'hold-folder.ts'));
});
afterAll(() => {
  killSpawned();
  holdFolder?.remove();
  rmSync(root, { recursive: true, force: true });
});

// The embedded database (PGlite) in a temporary folder: the same cases as against a server.
databaseCases({ name: 'pglite', fresh: async () => join(root, `db-${++n}`) });

describe('pglite: opening', () => {
  it('creates a missing folder (and its parents)', async () => {
    const db = await openDatabase(join(root, 'deep', 'er', 'db'));
    expect(db.where).toBe(join(root, 'deep', 'er', 'db'));
    await db.close();
  });

  it('a folder held by this process: refused at once with no wait, naming the holder; free again after close; a stale lock taken over', async () => {
    const path = join(root, 'locked');
    const db = await openDatabase(path, { command: 'svc-report test' });
    await expect(openDatabase(path)).rejects.toThrow(
      new RegExp(`^The database folder ${escape(path)} is in use: this process \\(svc-report test, since \\d{4}-\\d\\d-\\d\\dT[\\d:]+Z\\) still holds it, and it was not free within 0 s \\(--db-wait\\)`),
    );
    await expect(openDatabase(path)).rejects.toBeInstanceOf(DatabaseBusyError);
    await db.close();
    const again = await openDatabase(path);
    await again.close();
    // A lock left by a process that is gone is stale: taken over, in the older bare-pid form and in the current one.
    writeFileSync(join(path, 'owner.lock'), '2147483646\n');
    await (await openDatabase(path)).close();
    writeFileSync(join(path, 'owner.lock'), `${JSON.stringify({ pid: 2147483646, since: '2026-01-01T00:00:00Z', command: 'svc-report run', nonce: 'x' })}\n`);
    await (await openDatabase(path)).close();
    expect(existsSync(join(path, 'owner.lock'))).toBe(false);
  }, 300_000);

  it('another process holding the folder: a waiter says once who holds it and since when, and opens as soon as it lets go; a killed holder is stale', async () => {
    const path = join(root, 'shared');
    const holder = spawnNode([holdFolder!.file, path], {});
    const pid = Number((await holder.said(/open by (\d+)/))[1]);
    await expect(openDatabase(path)).rejects.toThrow(`is in use: process ${pid} (hold-folder, since `);
    const said: string[] = [];
    const waiting = openDatabase(path, { waitMs: 600_000, onWait: (line) => said.push(line) });
    // The holder is told to let go only once the waiter has said it waits: no timing assumed.
    await vi.waitFor(() => expect(said).toHaveLength(1), { timeout: 60_000, interval: 50 });
    expect(said[0]).toMatch(new RegExp(`^The history database ${escape(path)} is in use by process ${pid} \\(hold-folder, since \\d{4}-[\\d-]+T[\\d:]+Z\\); waiting up to 600 s for it \\(--db-wait\\)\\.$`));
    holder.child.kill('SIGTERM');
    expect(await holder.exit).toBe(0);
    const mine = await waiting;
    expect(said).toHaveLength(1); // once, not a stream
    await mine.close();

    const killed = spawnNode([holdFolder!.file, path], {});
    await killed.said(/open by \d+/);
    killed.child.kill('SIGKILL');
    await killed.exit;
    const after = await openDatabase(path);
    expect(await after.kysely.selectFrom('portfolios').selectAll().execute()).toEqual([]);
    await after.close();
  }, 300_000);

  it('mustExist: a folder holding no database is refused, and nothing is created there', async () => {
    const path = join(root, 'typo', 'db');
    await expect(openDatabase(path, { mustExist: true })).rejects.toThrow(`The database folder ${path} holds no history database`);
    expect(existsSync(join(root, 'typo'))).toBe(false);
  });

  it('a HistoryDatabase holds the folder only while work runs; work at the same time shares one opening', async () => {
    const path = join(root, 'per-use');
    const history = new HistoryDatabase(path, { waitMs: 0 });
    const lock = join(path, 'owner.lock');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = history.use(async (db) => {
      await gate;
      return db;
    });
    const second = history.use(async (db) => db);
    const [a, b] = await Promise.all([second, (async () => (release(), first))()]);
    expect(a).toBe(await b);
    expect(existsSync(lock)).toBe(false);
    // Between uses another opener has it at once (waitMs 0 would refuse a held folder).
    const other = await openDatabase(path);
    await other.close();
    await history.use(async () => expect(existsSync(lock)).toBe(true));
    expect(existsSync(lock)).toBe(false);
    await history.ping();
    await history.close();
  }, 300_000);

  it('a path that is a file is refused, the path named', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    await expect(openDatabase(file)).rejects.toThrow(`Could not open the database folder ${file}: it, or a folder above it, is a file, not a folder`);
  });

  it('default folder under the user data directory', () => {
    expect(defaultDatabasePath({ XDG_DATA_HOME: '/data/x' }, '/home/u')).toBe('/data/x/svc-report/db');
    expect(defaultDatabasePath({}, '/home/u')).toBe('/home/u/.local/share/svc-report/db');
    expect(defaultDatabasePath({ XDG_DATA_HOME: 'relative' }, '/home/u')).toBe('/home/u/.local/share/svc-report/db');
  });

  it('targets: a URL is a server, anything else a folder', () => {
    expect(parseTarget('postgres://h/db')).toEqual({ kind: 'postgres', url: 'postgres://h/db' });
    expect(parseTarget('postgresql://h/db').kind).toBe('postgres');
    expect(parseTarget('/x/y')).toEqual({ kind: 'pglite', path: '/x/y' });
    expect(() => parseTarget('mysql://h/db')).toThrow(/not a database this tool opens/);
  });
});
