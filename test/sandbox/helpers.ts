import { afterAll, beforeAll } from 'vitest';
import type { z } from 'zod';
import { ErrorResponse, TokenResponse } from '../../src/wire';
import { startSandbox, type SandboxOptions } from '../../src/sandbox';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export function start(opts: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, quiet: true, ...opts });
}

/** A sandbox for the enclosing suite and an access token of one account, started before and stopped after it. */
export function suiteSandbox(clientId = 'demo-enterprise', opts: SandboxOptions = {}): { sb: Sandbox; token: string } {
  const state = {} as { sb: Sandbox; token: string };
  beforeAll(async () => {
    state.sb = await start(opts);
    state.token = (await getToken(state.sb.url, clientId)).access_token;
  });
  afterAll(() => state.sb.close());
  return state;
}

export interface Reply {
  status: number;
  headers: Headers;
  json: unknown;
}

/** One HTTP call; the body is sent as JSON unless it is already a string. */
export async function call(base: string, method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

export async function getToken(base: string, clientId: string, secret = `${clientId}-secret`): Promise<TokenResponse> {
  const r = await call(base, 'POST', '/auth/token', { body: { client_id: clientId, client_secret: secret, grant_type: 'client_credentials' } });
  if (r.status !== 200) throw new Error(`token for ${clientId}: ${r.status} ${JSON.stringify(r.json)}`);
  return TokenResponse.parse(r.json);
}

/** Parses with a wire schema and fails the test with the zod message if the answer does not match. */
export function expectShape<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`response does not match the wire schema: ${r.error.message}\n${JSON.stringify(value).slice(0, 2000)}`);
  return r.data;
}

export function errorOf(r: Reply) {
  return expectShape(ErrorResponse, r.json).error;
}
