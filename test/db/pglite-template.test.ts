/**
 * A new embedded database starts from a copy of an empty cluster made once (issue 34: initdb was
 * the largest single cost of a newcomer's first run and of every new database folder), and from
 * initdb when the copy is missing, unusable or not a regular file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db';
import { createPGlite, ensureTemplate, readTemplate, templatePath } from '../../src/db/pglite-template';
import { tempDir } from '../reports/helpers';

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

  it('a copy that cannot be unpacked: what it left is removed and initdb makes the cluster', async () => {
    const broken = join(dir, 'broken.tar.gz');
    writeFileSync(broken, Buffer.from('not a tarball at all'));
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
    expect(readTemplate(marked)?.size).toBe(statSync(marked).size);
  });

  it('is made by the test run as by `npm run build`, once: named by the PGlite version, whole, and not rewritten', async () => {
    const path = templatePath();
    // The run's setup made it with ensureTemplate (written beside, then renamed): nothing half-written is left beside it.
    expect(path).toMatch(/pglite-empty-\d+\.\d+\.\d+[^/]*\.tar\.gz$/);
    expect(readdirSync(dirname(path)).filter((f) => f.startsWith(basename(path)) && f !== basename(path))).toEqual([]);
    expect(readTemplate(path)?.size).toBeGreaterThan(100_000);
    const before = statSync(path).mtimeMs;
    expect(await ensureTemplate(path)).toBe(path);
    expect(statSync(path).mtimeMs).toBe(before);
  });

  it('a database opened on a new folder works and is migrated', async () => {
    const db = await openDatabase(join(dir, 'opened'));
    try {
      expect(db.migrated.length).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 120_000);
});
