import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnNode } from '../../fixtures/spawned';
import { defaultDatabasePath, openDatabase, parseTarget } from '../../src/db';
import { databaseCases } from './cases';

const root = mkdtempSync(join(tmpdir(), 'svc-db-pglite-'));
let n = 0;
afterAll(() => {
  killSpawned();
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

  it('a folder in use by this or another process is refused in plain words, and free again after close', async () => {
    const path = join(root, 'locked');
    const db = await openDatabase(path);
    await expect(openDatabase(path)).rejects.toThrow(`The database folder ${path} is in use: this process already has it open`);
    await db.close();
    const again = await openDatabase(path);
    await again.close();
    // A lock left by a process that is gone is stale: taken over.
    writeFileSync(join(path, 'owner.lock'), '2147483646\n');
    const third = await openDatabase(path);
    await third.close();
  });

  it('another process holding the folder: refused naming it; free once it closes; its lock stale once it is killed', async () => {
    const path = join(root, 'shared');
    const holder = spawnNode(['--import', 'tsx', join(__dirname, 'hold-folder.ts'), path], {});
    const pid = Number((await holder.said(/open by (\d+)/))[1]);
    await expect(openDatabase(path)).rejects.toThrow(`The database folder ${path} is in use: process ${pid} has it open. An embedded database serves one process at a time; for several workers or hosts use a PostgreSQL server (--db postgres://…).`);
    holder.child.kill('SIGTERM');
    expect(await holder.exit).toBe(0);
    const mine = await openDatabase(path);
    await mine.close();

    const killed = spawnNode(['--import', 'tsx', join(__dirname, 'hold-folder.ts'), path], {});
    await killed.said(/open by \d+/);
    killed.child.kill('SIGKILL');
    await killed.exit;
    const after = await openDatabase(path);
    expect(await after.kysely.selectFrom('portfolios').selectAll().execute()).toEqual([]);
    await after.close();
  });

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
