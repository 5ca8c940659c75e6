import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload, type CryptoKey } from 'jose';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface TokenOptions {
  /** Claims over the defaults (aud, oid, name, iat, nbf, exp one hour ahead). */
  claims?: JWTPayload;
  /** Sign with a key the JWKS does not publish (a forger's, or one not yet rotated in). */
  key?: SigningKey;
  /** Override the issuer the token claims (another tenant). */
  issuer?: string;
  /** Header kid over the key's own. */
  kid?: string;
}

export interface OidcProvider {
  /** The issuer: http://127.0.0.1:PORT/<tenant>/v2.0, like Entra ID's shape. */
  issuer: string;
  /** How many times the JWKS was fetched (a refresh on an unknown kid shows up here). */
  jwksFetches(): number;
  /** How many times the OpenID configuration was asked for (failed answers included). */
  discoveryFetches(): number;
  /** Makes the OpenID configuration, or the JWKS, answer 503 until called again with undefined (an outage). */
  failing(what: 'discovery' | 'jwks' | undefined): void;
  /** A real token signed with the current published key. */
  token(audience: string, opts?: TokenOptions): Promise<string>;
  /** A key pair that is not (yet) published. */
  unpublishedKey(): Promise<SigningKey>;
  /** Publishes `key` and makes it the one tokens are signed with; the old key is withdrawn (a rotation). */
  rotateTo(key: SigningKey): void;
  close(): Promise<void>;
}

let kidCounter = 0;

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = `test-key-${++kidCounter}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

/**
 * A local OpenID provider of our own, as Entra ID looks to a resource server: an HTTP server on
 * 127.0.0.1 (free port) serving /<tenant>/v2.0/.well-known/openid-configuration and its JWKS,
 * with RSA keys made by jose, signing real tokens.
 */
export async function startOidcProvider(tenant = 'test-tenant'): Promise<OidcProvider> {
  let current = await newKey();
  let fetches = 0;
  let discoveries = 0;
  let failing: 'discovery' | 'jwks' | undefined;
  let issuer = '';
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === `/${tenant}/v2.0/.well-known/openid-configuration`) {
      discoveries++;
      if (failing === 'discovery') return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer.replace(/\/v2\.0$/, '')}/discovery/v2.0/keys`, id_token_signing_alg_values_supported: ['RS256'] }));
      return;
    }
    if (path === `/${tenant}/discovery/v2.0/keys`) {
      fetches++;
      if (failing === 'jwks') return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [current.publicJwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${tenant}/v2.0`;
  return {
    issuer,
    jwksFetches: () => fetches,
    discoveryFetches: () => discoveries,
    failing(what) {
      failing = what;
    },
    async token(audience, opts = {}) {
      const key = opts.key ?? current;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ oid: '00000000-0000-0000-0000-000000000001', name: 'Test User', tid: tenant, ver: '2.0', ...opts.claims })
        .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? key.kid, typ: 'JWT' })
        .setIssuer(opts.issuer ?? issuer)
        .setAudience(audience)
        .setIssuedAt(now)
        .setNotBefore(typeof opts.claims?.nbf === 'number' ? opts.claims.nbf : now)
        .setExpirationTime(typeof opts.claims?.exp === 'number' ? opts.claims.exp : now + 3600)
        .sign(key.privateKey);
    },
    unpublishedKey: newKey,
    rotateTo(key) {
      current = key;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
