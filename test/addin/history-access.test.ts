import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAddinHost, type AddinHostOptions, type RunningAddinHost } from '../../addin/server/host';
import { databaseHistory } from '../../addin/server/history-source';
import { hostConfigFromEnv } from '../../addin/server/config';
import { readPortfolioAccessFile } from '../../addin/server/portfolio-access';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE, DEPLOYMENT_KEY_HEADER } from '../../addin/src/shared/host-connection';
import { openDatabase, recordMonthEnd, recordRun, type Database } from '../../src/db';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startOidcProvider, type OidcProvider } from '../support/oidc-provider';

/**
 * Issue 35, "history by right": the host answers GET /addin/history only for a portfolio the
 * caller may read — with Entra, the app roles and groups of ADDIN_PORTFOLIO_ACCESS; with a
 * deployment key, the key's own list; no file, no access — and audits every read with the
 * portfolio's name. Real hosts over HTTP, real tokens from a local OpenID provider, a real
 * embedded database.
 */
const dir = mkdtempSync(join(tmpdir(), 'svc-history-access-'));
const AUDIENCE = 'api://addin.example.com/access';
const KEY = 'deploy-key-access-0123';
const WATCH = 'SVC-WAT-ROLEX-126610LN-2021';
const ADDIN = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE };
const ACCESS = {
  roles: { 'SVC.Advisor.Okafor': ['Okafor *'], 'SVC.AllClients': ['*'] },
  groups: { 'group-secret-desk': ['Secret Client A'] },
  deployment_key: ['Okafor Household'],
};
let sandbox: RunningSandbox;
let idp: OidcProvider;
let db: Database;
const hosts: RunningAddinHost[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  idp = await startOidcProvider();
  db = await openDatabase(join(dir, 'db'));
  const run = await recordRun(db, { toolVersion: 'test', serviceUrl: 'http://127.0.0.1:1', sandbox: true, command: 'test' });
  for (const [portfolio, value] of [['Okafor Household', 1_000], ['Secret Client A', 9_000]] as const) {
    await recordMonthEnd(db, { run, portfolio, asOf: '2025-01-31', currency: 'USD', value, netFlows: 0, holdings: [{ row: 2, assetId: WATCH, valueMid: value, currency: 'USD' }], ledger: [] });
  }
  writeFileSync(join(dir, 'access.json'), JSON.stringify(ACCESS));
}, 120_000);
afterAll(async () => {
  for (const h of hosts) await h.close();
  await db?.close();
  await idp?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function host(name: string, options: Partial<AddinHostOptions>): Promise<{ url: string; audit: () => Record<string, unknown>[] }> {
  const auditLog = join(dir, `${name}.jsonl`);
  const h = await startAddinHost({ port: 0, insecureHttp: true, officeJs: 'local', service: { baseUrl: sandbox.url, clientId: 'demo-pro', clientSecret: 'demo-pro-secret' }, history: databaseHistory(db), auditLog, ...options });
  hosts.push(h);
  return {
    url: h.url,
    audit: () =>
      readFileSync(auditLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const entra = { mode: 'entra' as const, entra: { issuer: '', audiences: [AUDIENCE], jwksCooldownMs: 0 } };

async function read(url: string, key: string, headers: Record<string, string>): Promise<{ status: number; body: { error?: { type: string; message: string }; month_ends?: unknown[] } }> {
  const res = await fetch(`${url}/addin/history?key=${encodeURIComponent(key)}`, { headers: { ...ADDIN, ...headers } });
  return { status: res.status, body: (await res.json()) as never };
}
const bearer = async (claims: Record<string, unknown>) => ({ authorization: `Bearer ${await idp.token(AUDIENCE, { claims })}` });

describe('ADDIN_AUTH=entra with ADDIN_PORTFOLIO_ACCESS', () => {
  it('serves a portfolio to a role whose glob matches it or a group naming it, refuses everyone else (403 "not allowed …"), and audits each read with its portfolio', async () => {
    const h = await host('entra', { auth: { ...entra, entra: { ...entra.entra, issuer: idp.issuer } }, portfolioAccess: readPortfolioAccessFile(join(dir, 'access.json')) });
    const advisor = await bearer({ oid: 'user-advisor', roles: ['SVC.Advisor.Okafor'] });
    const desk = await bearer({ oid: 'user-desk', groups: ['group-secret-desk', 'group-other'] });
    const nobody = await bearer({ oid: 'user-nobody', roles: ['SVC.User'], groups: ['group-other'] });

    // The glob "Okafor *" matches the household; nothing of the advisor's matches the secret client.
    expect((await read(h.url, 'Okafor Household', advisor)).status).toBe(200);
    const refused = await read(h.url, 'Secret Client A', advisor);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual(expect.objectContaining({ type: 'portfolio_not_allowed', message: expect.stringMatching(/^not allowed to read the history of the portfolio Secret Client A: .*ADDIN_PORTFOLIO_ACCESS/) }));
    expect(refused.body.month_ends).toBeUndefined();
    // A group names the secret client: its member reads it, and nothing else.
    expect((await read(h.url, 'Secret Client A', desk)).status).toBe(200);
    expect((await read(h.url, 'Okafor Household', desk)).status).toBe(403);
    // No role or group in the file: nothing, not even a portfolio that does not exist (no oracle of names).
    expect((await read(h.url, 'Okafor Household', nobody)).status).toBe(403);
    expect((await read(h.url, 'Nobody At All', nobody)).status).toBe(403);
    // Glob matching is whole and case-sensitive: a prefix or another case is another name.
    expect((await read(h.url, 'okafor household', advisor)).status).toBe(403);
    // An asset's history sums every portfolio holding it: only for whoever may read them all.
    expect((await read(h.url, WATCH, advisor)).status).toBe(403);
    const all = await read(h.url, WATCH, await bearer({ oid: 'user-all', roles: ['SVC.AllClients'] }));
    expect(all.status).toBe(200);
    expect(all.body.month_ends).toEqual([{ as_of: '2025-01-31', value: 10_000, net_flows: null, currency: 'USD' }]);

    await hosts.at(-1)!.close();
    const lines = h.audit().filter((l) => l.operation === 'history');
    expect(lines.map((l) => [l.user_id, l.portfolio ?? l.asset_id, l.status])).toEqual([
      ['user-advisor', 'Okafor Household', 200],
      ['user-advisor', 'Secret Client A', 403],
      ['user-desk', 'Secret Client A', 200],
      ['user-desk', 'Okafor Household', 403],
      ['user-nobody', 'Okafor Household', 403],
      ['user-nobody', 'Nobody At All', 403],
      ['user-advisor', 'okafor household', 403],
      ['user-advisor', WATCH, 403],
      ['user-all', WATCH, 200],
    ]);
    expect(lines.find((l) => l.status === 403)).toMatchObject({ error: 'portfolio_not_allowed' });
  });

  it('without ADDIN_PORTFOLIO_ACCESS nobody reads any history, whatever their roles', async () => {
    const h = await host('entra-no-file', { auth: { ...entra, entra: { ...entra.entra, issuer: idp.issuer } } });
    const all = await bearer({ oid: 'user-all', roles: ['SVC.AllClients'], groups: ['group-secret-desk'] });
    for (const key of ['Okafor Household', 'Secret Client A', WATCH]) expect((await read(h.url, key, all)).status, key).toBe(403);
  });
});

describe('ADDIN_AUTH=key', () => {
  it("serves the portfolios of the key's own list and refuses the others; no file: none", async () => {
    const h = await host('key', { deploymentKey: KEY, portfolioAccess: readPortfolioAccessFile(join(dir, 'access.json')) });
    const withKey = { [DEPLOYMENT_KEY_HEADER]: KEY };
    const mine = await read(h.url, 'Okafor Household', withKey);
    expect(mine.status).toBe(200);
    expect(mine.body.month_ends).toHaveLength(1);
    const other = await read(h.url, 'Secret Client A', withKey);
    expect(other.status).toBe(403);
    expect(other.body.error?.message).toMatch(/^not allowed to read the history of the portfolio Secret Client A/);
    expect((await read(h.url, WATCH, withKey)).status).toBe(403);
    await hosts.at(-1)!.close();
    expect(h.audit().map((l) => [l.portfolio ?? l.asset_id, l.status])).toEqual([
      ['Okafor Household', 200],
      ['Secret Client A', 403],
      [WATCH, 403],
    ]);

    const bare = await host('key-no-file', { deploymentKey: KEY });
    expect((await read(bare.url, 'Okafor Household', withKey)).status).toBe(403);
  });
});

describe('the access file', () => {
  it('is read at start-up: a wrong shape, not JSON, a FIFO-like non-file or a missing file stop the host naming the file, never quoting it', () => {
    const env = (file: string) => ({ ADDIN_PORTFOLIO_ACCESS: file, ADDIN_DEPLOYMENT_KEY: KEY });
    expect(hostConfigFromEnv(env(join(dir, 'access.json'))).portfolioAccess).toEqual(ACCESS);
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(() => hostConfigFromEnv(env(write('bad-shape.json', JSON.stringify({ roles: { A: 'Okafor *' } }))))).toThrow(/ADDIN_PORTFOLIO_ACCESS .*bad-shape\.json: roles\.A: /);
    expect(() => hostConfigFromEnv(env(write('typo.json', JSON.stringify({ role: {} }))))).toThrow(/unknown key \(allowed: roles, groups, deployment_key\)/);
    expect(() => hostConfigFromEnv(env(write('secret.txt', 'SVC_CLIENT_SECRET=hunter2-very-secret\n')))).toThrow(/secret\.txt is not JSON/);
    try {
      hostConfigFromEnv(env(join(dir, 'secret.txt')));
    } catch (e) {
      expect(String(e)).not.toContain('hunter2');
    }
    expect(() => hostConfigFromEnv(env(dir))).toThrow(/is not a regular file/);
    expect(() => hostConfigFromEnv(env('/dev/zero'))).toThrow(/is not a regular file/);
    expect(() => hostConfigFromEnv(env(join(dir, 'missing.json')))).toThrow(/missing\.json cannot be read \(ENOENT\)/);
  });
});
