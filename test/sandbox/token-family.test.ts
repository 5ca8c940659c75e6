import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenResponse } from '../../src/wire';
import { call, errorOf, expectShape, getToken, start, type Sandbox } from './helpers';

/** OAuth 2.0 Security BCP, refresh token reuse detection: a replayed refresh token revokes its whole family. */
let sb: Sandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => sb.close());

const refresh = (rt: string) => call(sb.url, 'POST', '/auth/refresh', { body: { refresh_token: rt, grant_type: 'refresh_token' } });
const segments = (token: string) => call(sb.url, 'GET', '/segments', { token });

describe('refresh token families', () => {
  it('a replayed refresh token revokes the newer refresh and access tokens of its chain, and only those', async () => {
    const first = await getToken(sb.url, 'demo-pro');
    const other = await getToken(sb.url, 'demo-pro'); // another grant: another family
    const second = expectShape(TokenResponse, (await refresh(first.refresh_token!)).json);
    const third = expectShape(TokenResponse, (await refresh(second.refresh_token!)).json);
    expect((await segments(third.access_token)).status).toBe(200);

    // The attacker (or a confused client) replays the spent first token.
    const replay = await refresh(first.refresh_token!);
    expect(replay.status).toBe(401);
    expect(errorOf(replay).action).toBe('reauthenticate');
    expect(errorOf(replay).message).toMatch(/already used.*revoked/);

    // The newest refresh token of the chain stops working, and so do the chain's access tokens.
    expect((await refresh(third.refresh_token!)).status).toBe(401);
    const revoked = await segments(third.access_token);
    expect(revoked.status).toBe(401);
    expect(errorOf(revoked).message).toMatch(/revoked/);
    expect((await segments(first.access_token)).status).toBe(401);

    // Another family of the same account is untouched, and signing in again starts afresh.
    expect((await segments(other.access_token)).status).toBe(200);
    expect((await refresh(other.refresh_token!)).status).toBe(200);
    const again = await getToken(sb.url, 'demo-pro');
    expect((await segments(again.access_token)).status).toBe(200);
  });

  it('a refresh token used once, in order, keeps the chain working', async () => {
    let t = await getToken(sb.url, 'demo-starter');
    for (let i = 0; i < 3; i++) {
      const r = await refresh(t.refresh_token!);
      expect(r.status).toBe(200);
      t = expectShape(TokenResponse, r.json);
    }
    expect((await segments(t.access_token)).status).toBe(200);
  });
});
