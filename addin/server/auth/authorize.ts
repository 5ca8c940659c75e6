import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DEPLOYMENT_KEY_HEADER } from '../../src/shared/host-connection';
import { EntraVerifier } from './entra-verifier';
import type { AuthSettings } from './settings';
import { anonymousUser, AuthRefusal, type RequestUser } from './user';
import { hostText } from '../host-text';

/** A JWT's shape: three base64url parts, the first a JSON object ("eyJ"). */
const LOOKS_LIKE_JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\./;

function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Decides who a request to a gated route (API, status, refresh, report) is for, per the host's ADDIN_AUTH mode. */
export class Authorizer {
  private readonly verifier: EntraVerifier | undefined;

  constructor(readonly settings: AuthSettings) {
    this.verifier = settings.mode === 'entra' ? new EntraVerifier(settings.entra) : undefined;
  }

  /** The request's user, or an AuthRefusal (401/403/503) with a sentence the pane can show. */
  async authorize(req: IncomingMessage, query: URLSearchParams): Promise<RequestUser> {
    const s = this.settings;
    if (s.mode === 'key') {
      if (!keyMatches(req.headers[DEPLOYMENT_KEY_HEADER], s.key)) {
        throw new AuthRefusal(403, 'deployment_key_required', hostText('addin.host_deployment_key'));
      }
      return anonymousUser(req.socket.remoteAddress);
    }
    if (s.mode === 'none') return anonymousUser(req.socket.remoteAddress);
    // Addresses end up in proxy logs and browser history: a token there is refused even with a good header.
    for (const [, value] of query) {
      if (LOOKS_LIKE_JWT.test(value)) throw new AuthRefusal(401, 'token_in_query', hostText('addin.host_token_in_query'));
    }
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim()) : null;
    if (!match) throw new AuthRefusal(401, 'sign_in_required', hostText('addin.host_sign_in_required'));
    return this.verifier!.verify(match[1]!);
  }
}
