import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, clientFor, realAnswer, scripted, scriptedClient, start, type Sandbox } from './helpers';

let sb: Sandbox;
let segmentsBody: string;
beforeAll(async () => {
  sb = await start();
  segmentsBody = await realAnswer(sb, '/segments');
});
afterAll(() => sb.close());

describe('servedBySandbox: the x-sandbox header marks simulated data whatever the configuration', () => {
  it('a client of a sandbox knows it after its first answer, though nothing in its options says so', async () => {
    const c = clientFor(sb, 'demo-pro');
    expect(c.servedBySandbox).toBe(false);
    await c.segments.list();
    expect(c.servedBySandbox).toBe(true);
  });

  it('an error answer marks it too (the header is on every sandbox answer)', async () => {
    const c = clientFor(sb, 'demo-pro', { clientSecret: 'not-the-secret' });
    await expect(c.segments.list()).rejects.toThrow();
    expect(c.servedBySandbox).toBe(true);
  });

  it('a service that does not send it is not a sandbox; once marked, a client stays marked', async () => {
    const plain = scripted([answer(200, segmentsBody), answer(200, segmentsBody)]);
    const real = scriptedClient(plain.fetchImpl);
    await real.segments.list();
    expect(real.servedBySandbox).toBe(false);
    const mixed = scripted([answer(200, segmentsBody, { 'x-sandbox': 'true' }), answer(200, segmentsBody)]);
    const c = scriptedClient(mixed.fetchImpl);
    await c.segments.list();
    await c.segments.list();
    expect(c.servedBySandbox).toBe(true);
  });
});
