import { describe, expect, it } from 'vitest';
import { freePort } from '../../fixtures/free-port';
import { publicBaseUrl } from '../../reports/run-manifest';
import { timestampFrom } from '../../reports/signoff/sign/timestamp';
import { checkServiceUrl } from '../../addin/server/config';
import { resolveSettings } from '../../reports/config';
import { openDatabase } from '../../src/db';
import { describeServer, serviceUrlWithoutCredentials } from '../../src/db/errors';
import { hasUserInfo, parsesAsWritten, redactUrl, scrubUrl, urlAddress } from '../../src/redact-url';
import { describeRedisUrl } from '../../src/scale-out';

/**
 * Issue 35, "secrets never printed, however spelt": one redaction for every URL the project
 * prints. Each password below is tried in the database, Redis, timestamp authority and service
 * URLs; the printed form must hold no trace of it, nor of a query token.
 */
const PASSWORDS = ['Pw/Sl@sh', 'a@b@c', 'h#sh', 'per%cent', 'pl+us=eq', 'q?uery', 'pässwörd€', 'Pw/Sl@sh#%+=?ü', 'co:lon', 'sp ace'];
const TOKEN = 'T0k/en=+%#frag';
/** A token holding an @ cannot be told from user info: the address is then not shown at all. */
const AT_TOKEN = 'T0k@en';

/** Pieces of a secret that must not show: the whole, and each run of 3+ characters between specials. */
function traces(secret: string): string[] {
  return [secret, ...secret.split(/[^\p{L}\p{N}]+/u).filter((p) => p.length >= 3)];
}

function expectNoTrace(printed: string, ...secrets: string[]): void {
  for (const s of secrets) for (const t of traces(s)) expect(printed, `${t} in ${printed}`).not.toContain(t);
}

describe('redactUrl: user info, password, query and fragment never shown, whatever their characters', () => {
  const urls = (pw: string) => [
    `postgres://svc:${pw}@db.internal:5432/history`,
    `redis://:${pw}@10.0.0.5:6379/0`,
    `https://tsa-user:${pw}@tsa.example.com/ts?token=${TOKEN}`,
    `https://api-user:${pw}@api.example.com/v1`,
  ];
  for (const pw of PASSWORDS)
    it(`password ${JSON.stringify(pw)}`, () => {
      for (const url of urls(pw)) {
        for (const printed of [redactUrl(url), urlAddress(url), publicBaseUrl(url)!, describeRedisUrl(url), serviceUrlWithoutCredentials(url), describeServer(url)]) expectNoTrace(printed, pw, TOKEN);
        expect(hasUserInfo(url)).toBe(true);
      }
      // The host is still named when it can be told for sure (no ? or # before the last @).
      if (!/[?#]/.test(pw)) {
        expect(redactUrl(urls(pw)[0]!)).toBe('postgres://***@db.internal:5432/history');
        expect(redactUrl(urls(pw)[2]!)).toBe('https://***@tsa.example.com/ts?…');
        expect(describeServer(urls(pw)[0]!)).toBe('the PostgreSQL server at db.internal:5432 (database history, user svc)');
        expect(describeRedisUrl(urls(pw)[1]!)).toBe('redis://10.0.0.5:6379/0');
      } else {
        expect(redactUrl(urls(pw)[0]!)).toBe('postgres://***@(address not shown)');
      }
    });

  it('a query token holding an @: nothing of it, nor of the password, and no host guessed from it', () => {
    for (const url of ['https://tsa.example.com/ts?token=T0k@en', 'https://u:Pw/Sl@sh@tsa.example.com/ts?token=T0k@en']) {
      expect(redactUrl(url)).toMatch(/^https:\/\/\*\*\*@\(address not shown\)$/);
      expectNoTrace(`${redactUrl(url)} ${urlAddress(url)}`, AT_TOKEN, 'Pw/Sl@sh');
    }
  });

  it('a string that is not a URL is never echoed', () => {
    for (const text of ['svc:Pw/Sl@sh@db.internal/history', 'Pw/Sl@sh', '', '://x:y@z', 'postgres:/x:secret@h']) expect(redactUrl(text)).toBe('(not a URL)');
  });

  it('a plain address keeps its parts; one the WHATWG parser would misread is not "as written"', () => {
    expect(redactUrl('postgres://db.internal/history')).toBe('postgres://db.internal/history');
    expect(urlAddress('https://svc.example.com:8443/v1?token=abc#x')).toBe('https://svc.example.com:8443/v1');
    expect(parsesAsWritten('postgres://svc:plain@db.internal:5432/history')).toBe(true);
    expect(parsesAsWritten('postgres://svc:Pw/Sl@sh@db.internal/history')).toBe(false);
    // The WHATWG parser reads host "u", port 123 here: part of the password would be shown as the port.
    expect(parsesAsWritten('postgres://u:123#x@db.internal/history')).toBe(false);
    expect(hasUserInfo('https://api.example.com/v1')).toBe(false);
  });

  it("scrubUrl takes the address, its user info and its query out of another's message, raw and decoded", () => {
    const url = 'https://u:s3cr%40t@tsa.example.com/ts?token=abc123';
    expect(scrubUrl(`Request cannot be constructed from a URL that includes credentials: ${url}`, url)).toBe('Request cannot be constructed from a URL that includes credentials: https://***@tsa.example.com/ts?…');
    expect(scrubUrl('auth failed for s3cr@t and token=abc123', url)).toBe('auth failed for *** and ***');
  });
});

describe('where the URLs are printed', () => {
  it('the database: a closed port, every password; our words intact even when the password is those words', async () => {
    const port = await freePort();
    for (const pw of [...PASSWORDS, 'nothing is listening there', 'the PostgreSQL server']) {
      const url = `postgres://svc:${pw}@127.0.0.1:${port}/history`;
      const err = (await openDatabase(url).catch((e: Error) => e)) as Error;
      expect(err.name).toBe('DatabaseError');
      if (parsesAsWritten(url)) {
        expect(err.message).toBe(`Could not open the PostgreSQL server at 127.0.0.1:${port} (database history, user svc): nothing is listening there (is the server running, and is the port right?)`);
      } else {
        expect(err.message).toMatch(/: its URL cannot be read as written; characters such as \/ @ # \? % : in the user name or password must be percent-encoded/);
        expectNoTrace(err.message.replace(/characters such as .*$/, ''), pw);
      }
      // Our own words taken out first: 'per%cent' is in "percent-encoded" without anything leaking.
      const ours = /(its URL cannot be read as written; characters such as .*|nothing is listening there.*)$/gm;
      if (!['nothing is listening there', 'the PostgreSQL server'].includes(pw)) expectNoTrace(`${err.message}\n${String(err.stack)}`.replace(ours, ''), pw);
    }
  }, 120_000);

  it('the timestamp authority: user info and token out of the error fetch raises', async () => {
    for (const pw of PASSWORDS) {
      const url = `https://tsa-user:${pw}@127.0.0.1:1/ts?token=${TOKEN}`;
      const err = (await timestampFrom(url)(Buffer.from('sig')).catch((e: Error) => e)) as Error;
      expect(err.name).toBe('UsageError');
      expect(err.message).toMatch(/^--tsa https:\/\/(127\.0\.0\.1:1\/ts|\(address not shown\)): the timestamp authority could not be reached/);
      expectNoTrace(err.message, pw, TOKEN);
    }
  });

  it('the service: an address with user info is refused without quoting it, however the password is spelt', () => {
    for (const pw of PASSWORDS) {
      const err = (() => {
        try {
          checkServiceUrl(`https://api-user:${pw}@api.example.com/v1`);
        } catch (e) {
          return e as Error;
        }
        return undefined;
      })();
      expect(err?.message).toMatch(/^SVC_BASE_URL must not contain a user name or password/);
      expectNoTrace(err!.message, pw);
      // The report job's own check (svc-report run, worker): refused too, never quoted.
      const job = (() => {
        try {
          resolveSettings({}, { SVC_BASE_URL: `https://api-user:${pw}@api.example.com/v1`, SVC_CLIENT_ID: 'a', SVC_CLIENT_SECRET: 'b', SVC_DB_URL: 'off' });
        } catch (e) {
          return e as Error;
        }
        return undefined;
      })();
      expect(job?.message).toMatch(/^SVC_BASE_URL contains a user name or password \(https:\/\/user:…@host\); it is not printed here/);
      expectNoTrace(job!.message, pw);
    }
  });
});
