/** Any console-like object works (`logger: console`). Logging is off unless one is given. */
export interface ClientLogger {
  debug?(message: string, data?: Record<string, unknown>): void;
  info?(message: string, data?: Record<string, unknown>): void;
  warn?(message: string, data?: Record<string, unknown>): void;
  error?(message: string, data?: Record<string, unknown>): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const SECRET_HEADERS = new Set(['authorization', 'x-cli-key', 'cookie', 'proxy-authorization']);
const SECRET_FIELDS = new Set(['client_secret', 'access_token', 'refresh_token', 'clientSecret', 'password']);
export const REDACTED = '[redacted]';

/** Header values that are credentials are replaced; the scheme of Authorization stays readable. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (!SECRET_HEADERS.has(k.toLowerCase())) out[k] = v;
    else out[k] = k.toLowerCase() === 'authorization' ? `${v.split(' ')[0]} ${REDACTED}` : REDACTED;
  }
  return out;
}

/** A shallow copy of a JSON body with secret fields replaced (token requests and answers). */
export function redactBody(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) out[k] = SECRET_FIELDS.has(k) ? REDACTED : v;
  return out;
}

export function log(logger: ClientLogger | undefined, level: LogLevel, message: string, data?: Record<string, unknown>): void {
  if (!logger) return;
  const fn = logger[level];
  if (typeof fn === 'function') fn.call(logger, message, data);
}
