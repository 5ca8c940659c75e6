import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { serveAddin } from '../../fixtures/served-addin';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { killSpawned } from '../../fixtures/spawned';
import { startPostgres, type PostgresProcess } from '../../fixtures/postgres-server';
import { openDatabase, pingDatabase, type Database } from '../../src/db';
import { databaseCheck } from '../../src/ops';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';

/**
 * /readyz names the history database (SVC_DB_URL) when one is configured: ready while it
 * answers, not ready naming it (without a password) when its server stops; the same check for
 * the embedded database. Health stays up.
 */
const dir = mkdtempSync(join(tmpdir(), 'svc-db-ready-'));
let sandbox: RunningSandbox;
let server: PostgresProcess | undefined;
const opened: Database[] = [];
const hosts: RunningAddinHost[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
}, 60_000);
afterAll(async () => {
  for (const h of hosts) await h.close();
  for (const db of opened) await db.close().catch(() => {});
  await server?.stop();
  await sandbox?.close();
  killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

async function hostWith(db: Database): Promise<RunningAddinHost> {
  const host = await startAddinHost({
    port: 0,
    insecureHttp: true,
    officeJs: 'local',
    readinessCheckMs: 100,
    service: { baseUrl: sandbox.url, clientId: 'demo-pro', clientSecret: 'demo-pro-secret' },
    readinessChecks: [databaseCheck(() => pingDatabase(db), db.where)],
  });
  hosts.push(host);
  return host;
}

async function readyz(host: RunningAddinHost): Promise<{ status: number; text: string; body: { ready: boolean; not_ready: string[]; checks: Record<string, { ok: boolean; problem?: string }> } }> {
  // An authorised caller (a none-mode host: the add-in's header) sees each check; others the bare status (test/ops/readiness.test.ts).
  const res = await fetch(`${host.url}/readyz`, { headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE } });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

describe('readiness with a history database', () => {
  it('a PostgreSQL server: ready while it answers; stopped, not ready naming the database, health up', async () => {
    server = await startPostgres();
    const url = await server.newDatabase();
    const db = await openDatabase(url);
    opened.push(db);
    const host = await hostWith(db);
    const up = await readyz(host);
    expect(up.status).toBe(200);
    expect(up.body.checks.database).toMatchObject({ ok: true });
    await server.stop();
    server = undefined;
    const down = await readyz(host);
    expect(down.status).toBe(503);
    expect(down.body.not_ready).toEqual(['database']);
    expect(down.body.checks.database!.problem).toMatch(/^the history database at .*127\.0\.0\.1.* does not answer: /);
    expect((await fetch(`${host.url}/healthz`)).status).toBe(200);
    // Unauthorised: the status alone, not where the database lives (issue 35).
    const bare = await fetch(`${host.url}/readyz`);
    expect(bare.status).toBe(503);
    expect(await bare.text()).toBe('{"ready":false}');
  }, 120_000);

  it('the embedded database (a folder): ready', async () => {
    const db = await openDatabase(join(dir, 'history'));
    opened.push(db);
    const host = await hostWith(db);
    const r = await readyz(host);
    expect(r.status).toBe(200);
    expect(r.body.checks.database).toMatchObject({ ok: true });
    await db.close();
    const closed = await readyz(host);
    expect(closed.status).toBe(503);
    expect(closed.body.checks.database!.problem).toMatch(/history database at .*history does not answer/);
  }, 120_000);

  it('addin:serve with SVC_DB_URL opens it, says where, and /readyz checks it', async () => {
    const { proc, url, client } = await serveAddin(sandbox.url, dir, { SVC_DB_URL: join(dir, 'served-history') });
    await proc.said(/History database: .*served-history\./);
    try {
      const r = await client.get(`${url}/readyz`);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text).checks.database).toMatchObject({ ok: true });
    } finally {
      client.close();
      proc.child.kill('SIGTERM');
      expect(await proc.exit).toBe(0);
    }
  }, 180_000);
});
