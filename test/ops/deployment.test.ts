import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { ROOT } from '../../fixtures/commands';
import { freePort } from '../../fixtures/free-port';
import { selfSignedCert } from '../../fixtures/tls-cert';
import { startSandbox, DEMO_ACCOUNTS, type RunningSandbox } from '../../src/sandbox';

/**
 * What docs/operations.md hands an IT admin, checked by the tools that will read it: the
 * systemd units (`systemd-analyze verify`, and `security` for the sandboxing), the Prometheus
 * alert rules (`promtool check rules`, and `promtool test rules` firing each alert on its
 * series), the scrape configuration (`promtool check config`), and the nginx example, run by a
 * real nginx in front of a real host.
 */

const DEPLOY = join(ROOT, 'deploy');
const dir = mkdtempSync(join(tmpdir(), 'svc-deploy-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tool(file: string, args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0, stdout, stderr });
    });
  });
}

describe('the systemd units', () => {
  const units = join(dir, 'units');
  beforeAll(() => {
    cpSync(join(DEPLOY, 'systemd'), units, { recursive: true });
    // A template is verified through an instance of it.
    symlinkSync('svc-report-worker@.service', join(units, 'svc-report-worker@1.service'));
  });
  const names = ['svc-addin-host.service', 'svc-report-worker@1.service', 'svc-month-end.service', 'svc-month-end.timer'];

  it('pass systemd-analyze verify without a single warning', async () => {
    const r = await tool('/usr/bin/systemd-analyze', ['verify', ...names], units);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('set the sandboxing the issue names (NoNewPrivileges, ProtectSystem=strict, ReadWritePaths), restart and stop within a bound', () => {
    for (const name of ['svc-addin-host.service', 'svc-report-worker@.service', 'svc-month-end.service']) {
      const text = readFileSync(join(units, name), 'utf8');
      for (const line of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'EnvironmentFile=/etc/svc/', 'TimeoutStopSec=', 'ReadWritePaths=/']) expect(text, `${name}: ${line}`).toContain(line);
      if (name !== 'svc-month-end.service') expect(text, name).toMatch(/^Restart=(on-failure|always)$/m);
    }
    expect(readFileSync(join(units, 'svc-addin-host.service'), 'utf8')).toMatch(/^ReadWritePaths=\/var\/log\/svc$/m);
  });

  it('are rated OK (exposure at most 2.0) by systemd-analyze security', async () => {
    for (const name of names.filter((n) => n.endsWith('.service'))) {
      const r = await tool('/usr/bin/systemd-analyze', ['security', '--offline=true', '--threshold=20', '--no-pager', name], units);
      expect(r.code, `${name}: ${r.stdout.slice(-300)}${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/Overall exposure level for .*: (0\.\d|1\.\d|2\.0) OK/);
    }
  });
});

describe('the Prometheus files', () => {
  it('the alert rules pass promtool check rules, and promtool test rules fires each alert on its series only', async () => {
    const check = await tool('/usr/bin/promtool', ['check', 'rules', 'svc-alerts.yml'], join(DEPLOY, 'prometheus'));
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('SUCCESS: 6 rules found');
    const test = await tool('/usr/bin/promtool', ['test', 'rules', 'svc-alerts.test.yml'], join(DEPLOY, 'prometheus'));
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toContain('SUCCESS');
    // Every rule has its case in the unit test.
    const rules = [...readFileSync(join(DEPLOY, 'prometheus/svc-alerts.yml'), 'utf8').matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    const tested = new Set([...readFileSync(join(DEPLOY, 'prometheus/svc-alerts.test.yml'), 'utf8').matchAll(/alertname: (\w+)/g)].map((m) => m[1]));
    expect(rules.filter((r) => !tested.has(r))).toEqual([]);
  });

  it('the example scrape configuration passes promtool check config', async () => {
    const r = await tool('/usr/bin/promtool', ['check', 'config', 'prometheus.yml'], join(DEPLOY, 'prometheus'));
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});

describe('the nginx example in front of a real host', () => {
  const NAME = 'addin.example.com';
  let sandbox: RunningSandbox;
  let host: RunningAddinHost;
  let nginx: ReturnType<typeof spawn> | undefined;
  let ports: { https: number; http: number };
  let cert: { cert: string; key: string };

  beforeAll(async () => {
    cert = selfSignedCert(dir, NAME);
    sandbox = await startSandbox({ port: 0, quiet: true });
    const account = DEMO_ACCOUNTS.find((a) => a.tier === 'pro')!;
    host = await startAddinHost({
      port: 0,
      tls: { cert: readFileSync(cert.cert), key: readFileSync(cert.key) },
      officeJs: 'local',
      publicOrigin: `https://${NAME}`,
      service: { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret },
    });
    ports = { https: await freePort(), http: await freePort() };
    // The example as shipped; only what names this machine changes: ports, certificate paths, the host's port.
    const site = readFileSync(join(DEPLOY, 'nginx/svc-addin.conf'), 'utf8')
      .replace('server 127.0.0.1:3000;', `server 127.0.0.1:${new URL(host.url).port};`)
      .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
      .replaceAll('/etc/ssl/svc/addin.example.com.fullchain.pem', cert.cert)
      .replaceAll('/etc/ssl/svc/addin.example.com.key', cert.key);
    expect(site).not.toContain('/etc/ssl/svc');
    writeFileSync(join(dir, 'site.conf'), site);
    const tmp = (name: string) => join(dir, name);
    writeFileSync(
      join(dir, 'nginx.conf'),
      `daemon off;\npid ${tmp('nginx.pid')};\nerror_log stderr warn;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${tmp('body')};\n  proxy_temp_path ${tmp('proxy')};\n  fastcgi_temp_path ${tmp('fastcgi')};\n  uwsgi_temp_path ${tmp('uwsgi')};\n  scgi_temp_path ${tmp('scgi')};\n  include ${tmp('site.conf')};\n}\n`,
    );
    const check = await tool('/usr/sbin/nginx', ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')]);
    expect(check.code, check.stderr).toBe(0);
    nginx = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${ports.http}/`, { redirect: 'manual' }).then(() => true, () => false);
      if (up) break;
      if (nginx.exitCode !== null) throw new Error('nginx exited');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 60_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await host?.close();
    await sandbox?.close();
  });

  /** A request to nginx as a browser at https://addin.example.com makes it (the certificate trusted). */
  const viaNginx = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
      const data = init.body === undefined ? undefined : JSON.stringify(init.body);
      const req = request(
        { host: '127.0.0.1', port: ports.https, path, method: init.method ?? 'GET', servername: NAME, ca: readFileSync(cert.cert), headers: { host: NAME, ...(data ? { 'content-type': 'application/json' } : {}), ...init.headers } },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(data);
    });

  it('terminates TLS and passes health, readiness and the API through; metrics stay private; plain HTTP redirects', async () => {
    expect(JSON.parse((await viaNginx('/healthz')).text)).toEqual({ status: 'ok' });
    const ready = await viaNginx('/readyz');
    expect(ready.status).toBe(200);
    const cell = await viaNginx('/api/v1/valuations', { method: 'POST', body: { segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: '126610LN', year: 2021 }, headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, origin: `https://${NAME}` } });
    expect(cell.status).toBe(200);
    expect(JSON.parse(cell.text)).toHaveProperty('estimated_value.mid');
    expect(cell.headers['strict-transport-security']).toBeDefined();
    expect((await viaNginx('/metrics')).status).toBe(404);
    // fetch will not send another Host than the address it connects to: node:http does.
    const plain = await new Promise<{ status: number; location: unknown }>((resolve, reject) =>
      httpGet({ host: '127.0.0.1', port: ports.http, path: '/taskpane.html', headers: { host: NAME } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      }).on('error', reject),
    );
    expect(plain).toEqual({ status: 301, location: `https://${NAME}/taskpane.html` });
  });
});
