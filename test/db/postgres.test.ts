import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedMigrations, MIGRATIONS, monthEndHoldings, monthEnds, openDatabase, recordMonthEnd, recordRun, type Database } from '../../src/db';
import { freePort } from '../../fixtures/free-port';
import { PASSWORD_ROLE, startPostgres, type PostgresProcess } from '../../fixtures/postgres-server';
import pg from 'pg';
import { count, databaseCases, holdings, ledgerOf, monthEnd } from './cases';

// A real PostgreSQL server started for this file (a test whose server is missing fails: no skip).
let server: PostgresProcess;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

databaseCases({ name: 'postgres', fresh: () => server.newDatabase() });

const RUN = { toolVersion: 't', serviceUrl: 'http://127.0.0.1:1', sandbox: true, command: 'test' };

describe('postgres: several processes on one server', () => {
  it('two opening a fresh database at once apply each migration once', async () => {
    const url = await server.newDatabase();
    const [a, b] = await Promise.all([openDatabase(url), openDatabase(url)]);
    try {
      expect([...a.migrated, ...b.migrated]).toEqual(Object.keys(MIGRATIONS));
      expect(await appliedMigrations(a.kysely)).toEqual(Object.keys(MIGRATIONS));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('two pools recording the same month at once leave exactly one record, wholly one of the two', async () => {
    const url = await server.newDatabase();
    const a: Database = await openDatabase(url);
    const b: Database = await openDatabase(url);
    try {
      const runA = await recordRun(a, RUN);
      const runB = await recordRun(b, RUN);
      for (let round = 0; round < 5; round++) {
        const asOf = `2025-0${round + 1}-28`;
        const fromA = monthEnd('Shared', asOf, runA, { value: 1000.01, holdings: holdings(50, 1), ledger: ledgerOf('Shared', 10, 1) });
        const fromB = monthEnd('Shared', asOf, runB, { value: 2000.02, holdings: holdings(50, 2), ledger: ledgerOf('Shared', 10, 2) });
        // A brand-new portfolio in the first round: both also race to create it.
        await Promise.all([recordMonthEnd(a, fromA), recordMonthEnd(b, fromB)]);
        const recorded = await monthEnds(a, 'Shared', { from: asOf, to: asOf });
        expect(recorded).toHaveLength(1);
        const winner = recorded[0]!.value === 1000.01 ? fromA : fromB;
        expect(await monthEndHoldings(b, 'Shared', asOf)).toEqual(winner.holdings);
      }
      expect(await count(a, 'portfolios')).toBe(1);
      expect(await count(a, 'month_ends')).toBe(5);
      expect(await count(a, 'holding_valuations')).toBe(5 * 50);
      expect(await count(a, 'ledger_entries')).toBe(5 * 10);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('postgres: opening errors', () => {
  it('a server that is not there is named by host and port, never the password', async () => {
    const port = await freePort();
    const err = await openDatabase(`postgres://svc:Sup3r-s3cret@127.0.0.1:${port}/history`).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(`Could not open the PostgreSQL server at 127.0.0.1:${port} (database history, user svc): nothing is listening there (is the server running, and is the port right?)`);
    expect((err as Error).message).not.toContain('Sup3r');
  });

  it('a wrong password is said so, the password never shown', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD 'right-one'`);
    await admin.end();
    const url = server.url.replace('//svc@', `//${PASSWORD_ROLE}:Wr0ng-s3cret@`);
    const err = (await openDatabase(url).catch((e: Error) => e)) as Error;
    expect(err.message).toBe(`Could not open the PostgreSQL server at 127.0.0.1:${server.port} (database postgres, user ${PASSWORD_ROLE}): the server refused the user name or password`);
    expect(String(err.stack)).not.toContain('Wr0ng');
    // The right password logs in; the role may not create tables in the public schema (Postgres 15+): said plainly too.
    await expect(openDatabase(server.url.replace('//svc@', `//${PASSWORD_ROLE}:right-one@`))).rejects.toThrow(
      `Could not open the PostgreSQL server at 127.0.0.1:${server.port} (database postgres, user ${PASSWORD_ROLE}): the user may not create the tables this tool needs (grant it CREATE on the database's public schema, or open it once as the database's owner)`,
    );
  });

  it('a database that does not exist is said so', async () => {
    const url = server.url.replace(/\/postgres$/, '/no_such_db');
    await expect(openDatabase(url)).rejects.toThrow(`Could not open the PostgreSQL server at 127.0.0.1:${server.port} (database no_such_db, user svc): that database does not exist on the server (create it first)`);
  });
});
