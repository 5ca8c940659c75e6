import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, getToken } from './helpers';
import { commandArgs } from '../../fixtures/commands';

const BIN_ARGS = commandArgs('svc-sandbox');

describe('svc-sandbox CLI', () => {
  it('--help documents every flag', () => {
    const r = spawnSync(process.execPath, [...BIN_ARGS, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(0);
    for (const flag of ['--port', '--host', '--accounts', '--token-ttl', '--minute-ms', '--day-ms', '--faults', '--seed', '--log', '--help']) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toMatch(/error=.*drop=.*latency=.*r429=/);
  });

  it('refuses a bad --faults value with a sentence', () => {
    const r = spawnSync(process.execPath, [...BIN_ARGS, '--port', '0', '--faults', 'boom=1'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/unknown kind 'boom'/);
  });

  it('refuses an accounts file with a bad entry, naming it and not the secret', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-cli-')), 'accounts.json');
    writeFileSync(file, JSON.stringify([{ client_id: 'acme', client_secret: 'hush-hush-value', tier: 'platinum' }]));
    const r = spawnSync(process.execPath, [...BIN_ARGS, '--port', '0', '--accounts', file], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('[0].tier');
    expect(r.stderr).not.toContain('hush-hush-value');
  });

  it('starts on a free port with an accounts file, prints the URL and never the secrets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
    const file = join(dir, 'accounts.json');
    writeFileSync(file, JSON.stringify([{ client_id: 'acme', client_secret: 'very-private-value', tier: 'enterprise', per_minute: 5 }]));
    const child = spawn(process.execPath, [...BIN_ARGS, '--port', '0', '--accounts', file, '--token-ttl', '120'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d;
          const m = /listening on (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const t = await getToken(url, 'acme', 'very-private-value');
      expect(t.expires_in).toBe(120);
      const r = await call(url, 'GET', '/segments', { token: t.access_token });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      expect(err).toContain('acme (enterprise)');
      expect(out + err).not.toContain('very-private-value');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
