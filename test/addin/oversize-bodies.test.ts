import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayloadTooLargeError, ServiceClient } from '../../src/client';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { startStack, type Stack } from './stack';

/**
 * Every refusal is an answer: a body over the limit gets its 413 error body every time, on the
 * sandbox and on the add-in host, with `Connection: close` after it, never a broken connection
 * (a server that answered and closed while the client was still sending made the client's
 * writes fail with EPIPE before it could read the answer).
 */
let stack: Stack;
let token: string;
beforeAll(async () => {
  stack = await startStack();
  const r = await fetch(`${stack.sandboxUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: stack.account.client_id, client_secret: stack.account.client_secret, grant_type: 'client_credentials' }),
  });
  token = ((await r.json()) as { access_token: string }).access_token;
});
afterAll(() => stack?.close());

const MB = 1024 * 1024;
const padded = (bytes: number) => `{"assets":[],"pad":"${'x'.repeat(bytes)}"}`;

interface Answer {
  status: number;
  connection: string | undefined;
  type: string | undefined;
}

/** node:http, the body written in 64 KiB pieces as a real upload is; `chunked` sends no Content-Length. */
function post(url: string, body: string, headers: Record<string, string>, chunked = false): Promise<Answer | Error> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers, ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let type: string | undefined;
        try {
          type = (JSON.parse(text) as { error?: { type?: string } }).error?.type;
        } catch {
          type = undefined;
        }
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, type });
      });
      res.on('error', resolve);
    });
    req.on('error', resolve);
    const buf = Buffer.from(body);
    let at = 0;
    const write = () => {
      while (at < buf.length) {
        const piece = buf.subarray(at, (at += 64 * 1024));
        if (!req.write(piece)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

/** What the add-in's own pages send (the host refuses API calls without it). */
const ADDIN = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE };
const refused = { status: 413, connection: 'close', type: 'payload_too_large' };

describe('a body over the limit', () => {
  it('the sandbox: 20 tries of 5 MB (10 with a length, 10 chunked), 20 answers 413, no broken connection', async () => {
    const answers: (Answer | Error)[] = [];
    for (let i = 0; i < 20; i++) answers.push(await post(`${stack.sandboxUrl}/valuations/batch`, padded(5 * MB), { authorization: `Bearer ${token}` }, i % 2 === 1));
    expect(answers).toEqual(Array(20).fill(refused));
    // Still serving.
    expect((await fetch(`${stack.sandboxUrl}/segments`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('the sandbox answers once the client has sent its body (bounded), so the answer is never lost to a closed socket', async () => {
    const u = new URL(stack.sandboxUrl);
    const body = Buffer.from(padded(5 * MB));
    const socket = connect(Number(u.port), u.hostname);
    let answer = '';
    let answeredBeforeBodySent = false;
    let bodySent = false;
    socket.on('data', (c: Buffer) => {
      if (!bodySent) answeredBeforeBodySent = true;
      answer += c.toString('latin1');
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(`POST ${u.pathname}/valuations/batch HTTP/1.1\r\nhost: ${u.host}\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    for (let at = 0; at < body.length; at += 64 * 1024) {
      await new Promise<void>((resolve, reject) => socket.write(body.subarray(at, at + 64 * 1024), (e) => (e ? reject(e) : resolve())));
    }
    bodySent = true;
    await closed;
    expect(answeredBeforeBodySent).toBe(false);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain('"type":"payload_too_large"');
  });

  it("the add-in host: 20 over its API and report limits, 20 answers 413, no broken connection", async () => {
    const answers: (Answer | Error)[] = [];
    for (let i = 0; i < 10; i++) answers.push(await post(`${stack.host.url}/api/v1/valuations/batch`, padded(i < 5 ? 1.1 * MB : 5 * MB), ADDIN, i % 2 === 1));
    for (let i = 0; i < 10; i++) answers.push(await post(`${stack.host.url}/addin/report`, padded(9 * MB), ADDIN, i % 2 === 1));
    expect(answers).toEqual(Array(20).fill(refused));
  });

  it('a refusal before the body is read (no token) is answered too', async () => {
    const answers: (Answer | Error)[] = [];
    for (let i = 0; i < 5; i++) answers.push(await post(`${stack.sandboxUrl}/valuations/batch`, padded(800 * 1024), { authorization: 'Bearer not-a-token' }));
    expect(answers.map((a) => (a instanceof Error ? a.message : a.status))).toEqual(Array(5).fill(401));
  });

  it('the client reports it as a typed 413, not a connection error', async () => {
    // A fetch that pads the JSON body with whitespace past the limit: still valid JSON, too large.
    const client = new ServiceClient({
      baseUrl: stack.sandboxUrl,
      clientId: stack.account.client_id,
      clientSecret: stack.account.client_secret,
      rateLimitKey: 'oversize',
      fetch: (url, init) => fetch(url, init?.body && String(url).endsWith('/valuations/batch') ? { ...init, body: `${String(init.body)}${' '.repeat(5 * MB)}` } : init),
    });
    const err = await client.valuations.batch({ assets: [{ segment: 'watches', brand: 'Rolex', model: 'Submariner', reference: '126610LN', year: 2020 }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayloadTooLargeError);
    expect((err as PayloadTooLargeError).status).toBe(413);
    expect((err as PayloadTooLargeError).code).toBe('payload_too_large');
  });
});
