import { describe, expect, it } from 'vitest';
import { CredentialsTokenSource, type TokenEndpoint } from '../../src/client/tokens';
import type { TokenResponse } from '../../src/wire';

// When tokens are renewed, on an injected clock: the HTTP tests (tokens.test.ts) show that a
// run across many lifetimes never fails a call; this shows the schedule itself, which real
// time on a loaded machine can only sample.

const token = (n: number): TokenResponse => ({ access_token: `access-${n}`, refresh_token: `refresh-${n}`, token_type: 'Bearer', expires_in: 100 });

/** An endpoint whose answers the test hands out, one at a time. */
function endpoint() {
  const calls: string[] = [];
  let answer: ((t: TokenResponse) => void) | undefined;
  let issued = 0;
  const pending = () =>
    new Promise<TokenResponse>((resolve) => {
      answer = resolve;
    });
  const ep: TokenEndpoint = {
    issue: () => (calls.push('issue'), pending()),
    refresh: (r) => (calls.push(`refresh ${r}`), pending()),
  };
  const respond = async () => {
    answer!(token(++issued));
    await new Promise((r) => setImmediate(r));
  };
  return { ep, calls, respond };
}

describe('token renewal schedule (100 s tokens: renewed from 70 s, never handed out after 95 s)', () => {
  it('renews in the background during the last 30 s: the caller gets the current token at once', async () => {
    let now = 0;
    const e = endpoint();
    const src = new CredentialsTokenSource(e.ep, undefined, () => now);
    const first = src.token();
    await e.respond();
    expect(await first).toBe('access-1');
    now = 69_999;
    expect(await src.token()).toBe('access-1');
    expect(e.calls).toEqual(['issue']);
    now = 70_000;
    expect(await src.token()).toBe('access-1'); // not kept waiting for the renewal
    expect(e.calls).toEqual(['issue', 'refresh refresh-1']);
    expect(await src.token()).toBe('access-1'); // one renewal in flight, not two
    expect(e.calls).toHaveLength(2);
    await e.respond();
    expect(await src.token()).toBe('access-2');
  });

  it('a token in its last 5 s is never handed out: the caller waits for the new one', async () => {
    let now = 0;
    const e = endpoint();
    const src = new CredentialsTokenSource(e.ep, undefined, () => now);
    const first = src.token();
    await e.respond();
    await first;
    now = 95_000;
    let got: string | undefined;
    const waiting = src.token().then((t) => (got = t));
    await new Promise((r) => setImmediate(r));
    expect(got).toBeUndefined();
    await e.respond();
    await waiting;
    expect(got).toBe('access-2');
  });
});
