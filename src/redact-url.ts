/**
 * One redaction for every URL the project prints (database, Redis, service, timestamp authority):
 * scheme, host, port and path; never user info, a password, a query or a fragment, whatever
 * characters they hold, and never the input itself when it is not a URL (issue 35).
 *
 * The WHATWG parser is not used to find the parts: a password with an unencoded `/`, `@`, `#` or
 * `?` makes it fail (and the failure was quoted) or, worse, read part of the password as the host
 * or port. Here the user info is everything before the LAST `@` of the address, as a person who
 * typed the password meant; when that part holds a `?` or `#` the address cannot be told from a
 * query or fragment holding an `@`, and the host is not shown either.
 */

export interface UrlParts {
  /** Lower-case, without `://`. */
  scheme: string;
  /** Whether the address carries user info (a user name, a password, or both). */
  hasUserInfo: boolean;
  /** The user name (before the first `:` of the user info) when it is a plain name; never the password. Only describeServer names it: a bare `token@` elsewhere may be a secret, and redactUrl never prints it. */
  user?: string;
  /** host[:port], when it can be told for sure and is made of host characters. */
  host?: string;
  hostname?: string;
  port?: string;
  /** The path when it is plain printable ASCII (`/v1`, `/history`), else `/…`; '' when none. */
  path: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s;
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[\p{L}\p{N}._~-]+)(?::(\d{1,5}))?$/u;

/** The parts of `text` that may be printed, or undefined when it is not `scheme://…`. */
export function urlParts(text: string): UrlParts | undefined {
  const m = SCHEME.exec(text.trim());
  if (!m) return undefined;
  const rest = m[2]!;
  const at = rest.lastIndexOf('@');
  const userInfo = at >= 0 ? rest.slice(0, at) : '';
  const address = rest.slice(at + 1);
  const end = address.search(/[/?#]/);
  const hostPort = end < 0 ? address : address.slice(0, end);
  const tail = end < 0 ? '' : address.slice(end);
  const rawPath = tail.startsWith('/') ? tail.split(/[?#]/)[0]! : '';
  const parts: UrlParts = { scheme: m[1]!.toLowerCase(), hasUserInfo: at >= 0, path: /^[\x21-\x7e]*$/.test(rawPath) ? rawPath : '/…' };
  const ambiguous = /[?#]/.test(userInfo);
  const host = HOST.exec(hostPort);
  if (!ambiguous && host) {
    parts.host = hostPort;
    parts.hostname = host[1]!;
    if (host[2] !== undefined) parts.port = host[2];
  }
  if (ambiguous) parts.path = '';
  const colon = userInfo.indexOf(':');
  const user = colon >= 0 ? userInfo.slice(0, colon) : userInfo;
  if (!ambiguous && /^[\p{L}\p{N}._~@+-]+$/u.test(user)) parts.user = user;
  return parts;
}

/**
 * `postgres://user:Pw/Sl@sh@db.internal:5432/history?sslpassword=x` → `postgres://***@db.internal:5432/history`;
 * a query or fragment is left out (`?…`); text that is not a URL → `(not a URL)`.
 */
export function redactUrl(text: string): string {
  const p = urlParts(text);
  if (!p) return '(not a URL)';
  const query = /[?#]/.test(text.slice(text.lastIndexOf('@') + 1)) ? '?…' : '';
  return `${p.scheme}://${p.hasUserInfo ? '***@' : ''}${p.host ?? '(address not shown)'}${p.host ? p.path : ''}${p.host ? query : ''}`;
}

/**
 * The address alone, fit to keep on record or print: `scheme://host[:port]/path`, without user
 * info, query or fragment (and without saying they were there); `(not a URL)` otherwise.
 */
export function urlAddress(text: string): string {
  const p = urlParts(text);
  if (!p) return '(not a URL)';
  return `${p.scheme}://${p.host ?? '(address not shown)'}${p.host ? p.path : ''}`;
}

/** True when the address carries user info by either reading (the WHATWG parser's, or the last `@`'s). */
export function hasUserInfo(text: string): boolean {
  if (urlParts(text)?.hasUserInfo) return true;
  try {
    const u = new URL(text);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

/**
 * True when the WHATWG parser (which the drivers use) reads the same host and user info as a
 * person would: false for a password with an unencoded `/`, `@`, `#` or `?`, which a driver
 * would read as another host, port or path (or refuse with the address quoted).
 */
export function parsesAsWritten(text: string): boolean {
  const p = urlParts(text);
  if (!p?.host) return false;
  const m = SCHEME.exec(text.trim())!;
  const info = m[2]!.slice(0, Math.max(0, m[2]!.lastIndexOf('@')));
  try {
    decodeURIComponent(info); // a lone % (or %ce…) is refused by the drivers, quoting the address
  } catch {
    return false;
  }
  try {
    const u = new URL(text.trim());
    const sameUser = (u.username !== '' || u.password !== '') === p.hasUserInfo;
    return sameUser && u.hostname.toLowerCase() === p.hostname!.toLowerCase() && (u.port === '' || u.port === p.port);
  } catch {
    return false;
  }
}

/**
 * A message from elsewhere (a driver, fetch) with any trace of `url` replaced: the address
 * itself, its user info and its password, raw and percent-decoded, become the redacted form or
 * `***`. Our own words are never passed through here, so a password that is an ordinary word
 * cannot blank them.
 */
export function scrubUrl(message: string, url: string): string {
  let out = message.split(url).join(redactUrl(url));
  const m = SCHEME.exec(url.trim());
  if (m) {
    const rest = m[2]!;
    const at = rest.lastIndexOf('@');
    const secrets = new Set<string>();
    if (at >= 0) {
      const info = rest.slice(0, at);
      secrets.add(info);
      const colon = info.indexOf(':');
      if (colon >= 0) secrets.add(info.slice(colon + 1));
    }
    const q = rest.search(/[?#]/);
    if (q >= 0) secrets.add(rest.slice(q + 1));
    for (const s of [...secrets]) {
      try {
        secrets.add(decodeURIComponent(s));
      } catch {
        /* not percent-encoded */
      }
    }
    for (const s of [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length)) out = out.split(s).join('***');
  }
  return out;
}
