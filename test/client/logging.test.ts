import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FetchLike } from '../../src/client';
import { captureLogger, clientFor, start, watches, type Sandbox } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ tokenTtlSeconds: 1, faults: 'error=0.2', seed: 5 });
});
afterAll(() => sb.close());

describe('logging', () => {
  it('is off by default', async () => {
    const spies = (['log', 'debug', 'info', 'warn', 'error'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => undefined));
    await clientFor(sb, 'demo-pro', { rateLimitKey: 'quiet' }).segments.list();
    for (const s of spies) {
      expect(s).not.toHaveBeenCalled();
      s.mockRestore();
    }
  });

  it('never prints the client secret, an access token, a refresh token or the CLI key', async () => {
    // Keep every credential the service hands out, to search the log for them afterwards.
    const secrets = new Set<string>(['demo-pro-secret', 'cli-key-0123456789']);
    const recording: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if (url.includes('/auth/')) {
        const body = (await res.clone().json()) as { access_token?: string; refresh_token?: string };
        if (body.access_token) secrets.add(body.access_token);
        if (body.refresh_token) secrets.add(body.refresh_token);
      }
      return res;
    };
    const { lines, logger } = captureLogger();
    const c = clientFor(sb, 'demo-pro', { logger, fetch: recording, headers: { 'x-cli-key': 'cli-key-0123456789', 'x-sandbox-mode': 'true' }, maxRetries: 6 });
    // Until tokens were issued and refreshed (1 s lifetime) and a 500 was retried: events, not a duration.
    const retried = () => lines.some((l) => /warn retrying batchValuations .* after HTTP 500/.test(l));
    while (secrets.size <= 4 || !retried()) {
      await c.valueAll(watches(120));
      await c.segments.list();
      await new Promise((r) => setTimeout(r, 150));
    }
    // Wrong credentials too: their error must not echo the secret either.
    const wrong = clientFor(sb, 'demo-pro', { clientSecret: 'not-the-secret-42', logger, rateLimitKey: 'wrong' });
    await wrong.segments.list().catch(() => undefined);
    secrets.add('not-the-secret-42');

    const text = lines.join('\n');
    expect(secrets.size).toBeGreaterThan(4); // tokens were issued and refreshed during the run
    for (const s of secrets) expect(text).not.toContain(s);
    // The log is still useful: requests, redacted credentials, retries.
    expect(text).toContain('Bearer [redacted]');
    expect(text).toContain('"client_secret":"[redacted]"');
    expect(text).toContain('"refresh_token":"[redacted]"');
    expect(text).toContain('"x-cli-key":"[redacted]"');
    expect(text).toMatch(/warn retrying batchValuations .* after HTTP 500/);
  });
});
