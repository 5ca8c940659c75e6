/**
 * A new embedded database starts from a copy of a migrated empty cluster made once (issue 34:
 * initdb and the migrations were the largest costs of a newcomer's first run and of every new
 * database folder), keyed by PGlite's version and the migrations it holds, remade when missing or
 * not whole, and from initdb when the copy is not a regular file.
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { beforeAll, describe, expect, it } from 'vitest';
import { appliedMigrations, MIGRATIONS, openDatabase } from '../../src/db';
import { createPGlite, ensureTemplate, readTemplate, templatePath } from '../../src/db/pglite-template';
import { ROOT } from '../../fixtures/commands';
import { tempDir } from '../reports/helpers';

const ALL_MIGRATIONS = Object.keys(MIGRATIONS).sort();

/** The migrations a cluster records as applied (none when it has no kysely_migration table). */
async function migrationsIn(pg: PGlite): Promise<string[]> {
  if ((await tableCount(pg, 'kysely_migration')) === 0) return [];
  return (await pg.query<{ name: string }>('select name from kysely_migration order by name')).rows.map((r) => r.name);
}

/** How many tables of that name the cluster holds (0 or 1). */
async function tableCount(pg: PGlite, name: string): Promise<number> {
  return (await pg.query<{ n: number }>('select count(*)::int as n from pg_tables where tablename = $1', [name])).rows[0]!.n;
}

describe('the empty embedded database copy', () => {
  let dir: string;
  let marked: string;

  beforeAll(async () => {
    dir = tempDir('svc-pglite-template-');
    // A copy with a marker in it: a folder made from it has the marker, one made by initdb has not.
    const pg = await PGlite.create();
    await pg.exec('create table made_from_the_copy (x int)');
    marked = join(dir, 'marked.tar.gz');
    writeFileSync(marked, Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer()));
    await pg.close();
  }, 120_000);

  it('fills a new folder from the copy', async () => {
    const pg = await createPGlite(join(dir, 'fresh', 'pgdata'), marked);
    try {
      expect(await tableCount(pg, 'made_from_the_copy')).toBe(1);
    } finally {
      await pg.close();
    }
  });

  it('never unpacks the copy over a folder that already holds something', async () => {
    const data = join(dir, 'existing', 'pgdata');
    const first = await createPGlite(data, marked);
    await first.exec('create table kept (x int)');
    await first.close();
    const again = await createPGlite(data, marked);
    try {
      expect(await tableCount(again, 'kept')).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('a whole gzip that PGlite cannot unpack: what it left is removed and initdb makes the cluster', async () => {
    const broken = join(dir, 'broken.tar.gz');
    writeFileSync(broken, gzipSync(Buffer.from('not a tarball at all')));
    const pg = await createPGlite(join(dir, 'from-broken', 'pgdata'), broken);
    try {
      expect(await tableCount(pg, 'made_from_the_copy')).toBe(0);
      expect((await pg.query<{ one: number }>('select 1 as one')).rows[0]!.one).toBe(1);
    } finally {
      await pg.close();
    }
  }, 300_000);

  it('reads only a regular file of a sane size: not a FIFO, a device, a folder or a huge file', () => {
    const fifo = join(dir, 'fifo.tar.gz');
    execFileSync('mkfifo', [fifo]);
    const device = join(dir, 'zero.tar.gz');
    symlinkSync('/dev/zero', device);
    const folder = join(dir, 'folder.tar.gz');
    mkdirSync(folder);
    const huge = join(dir, 'huge.tar.gz');
    writeFileSync(huge, '');
    truncateSync(huge, 65 * 1024 * 1024);
    for (const path of [fifo, device, folder, huge, join(dir, 'missing.tar.gz')]) expect(readTemplate(path), path).toBeUndefined();
    // Handed to PGlite unpacked: a whole gzip is checked (length and CRC) before PGlite sees it.
    expect(readTemplate(marked)?.size).toBe(gunzipSync(readFileSync(marked)).length);
  });

  it('is made by the test run as by `npm run build`, once: named by the PGlite version and the last migration, whole, and not rewritten', async () => {
    const path = templatePath();
    // The run's setup made it with ensureTemplate (written beside, then renamed): nothing half-written is left beside it.
    expect(basename(path)).toMatch(new RegExp(`^pglite-migrated-\\d+\\.\\d+\\.\\d+[^/]*-${ALL_MIGRATIONS.at(-1)}-[0-9a-f]{12}\\.tar\\.gz$`));
    expect(readdirSync(dirname(path)).filter((f) => f.startsWith(basename(path)) && f !== basename(path))).toEqual([]);
    expect(readTemplate(path)?.size).toBeGreaterThan(100_000);
    const before = statSync(path).mtimeMs;
    expect(await ensureTemplate(path)).toBe(path);
    expect(statSync(path).mtimeMs).toBe(before);
  });

  it('a database opened on a new folder works and is migrated: it came so from the copy, no migration ran at its opening', async () => {
    const db = await openDatabase(join(dir, 'opened'));
    try {
      expect(await appliedMigrations(db.kysely)).toEqual(ALL_MIGRATIONS);
      expect(db.migrated).toEqual([]);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('a copy keyed by an older set of migrations is never used: the current key names another file', async () => {
    const root = tempDir('svc-pglite-keys-');
    const stale = templatePath(root, ALL_MIGRATIONS.slice(0, -1));
    const current = templatePath(root);
    expect(stale).not.toBe(current);
    mkdirSync(dirname(stale), { recursive: true });
    copyFileSync(marked, stale);
    copyFileSync(templatePath(), current);
    const pg = await createPGlite(join(root, 'db', 'pgdata'), current);
    try {
      expect(await tableCount(pg, 'made_from_the_copy')).toBe(0);
      expect(await migrationsIn(pg)).toEqual(ALL_MIGRATIONS);
    } finally {
      await pg.close();
    }
    // Buffer.equals: a deep toEqual over 4 MB compares byte by byte for minutes.
    expect(readFileSync(stale).equals(readFileSync(marked))).toBe(true);
  }, 120_000);

  it('a truncated copy is not used: two processes opening new folders from it at once both get a migrated cluster and leave one whole copy', async () => {
    const root = tempDir('svc-pglite-truncated-');
    const copy = join(root, 'copy.tar.gz');
    copyFileSync(templatePath(), copy);
    truncateSync(copy, Math.floor(statSync(copy).size / 2));
    // Each in a process of its own (PGlite's own unpacking of a truncated gzip ends the process it runs in).
    const open = (n: number) =>
      promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `import { createPGlite } from './src/db/pglite-template.ts';
           const pg = await createPGlite(${JSON.stringify(join(root, `db${n}`, 'pgdata'))}, ${JSON.stringify(copy)});
           const rows = (await pg.query('select name from kysely_migration order by name')).rows;
           console.log(JSON.stringify(rows.map((r) => r.name)));
           await pg.close();`,
        ],
        { cwd: ROOT, timeout: 240_000 },
      );
    const outputs = await Promise.all([open(1), open(2)]);
    for (const { stdout } of outputs) expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual(ALL_MIGRATIONS);
    expect(readTemplate(copy)).toBeDefined();
    expect(readdirSync(root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(root, 'db1', 'pgdata', 'PG_VERSION')) && existsSync(join(root, 'db2', 'pgdata', 'PG_VERSION'))).toBe(true);
  }, 300_000);
});
