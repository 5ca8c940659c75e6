import type { IncomingHttpHeaders } from 'node:http';
import { RATE_HEADERS, REQUEST_ID_HEADER, SANDBOX_HEADER } from '../../wire';
import { AS_OF_HEADER } from './context';

const EXPOSED = [...Object.values(RATE_HEADERS), 'retry-after', SANDBOX_HEADER, REQUEST_ID_HEADER].join(', ');
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-sandbox-mode', 'x-cli-key', AS_OF_HEADER].join(', ');

/** Headers every response carries: the sandbox mark, and CORS so browser tests (the add-in) can call the sandbox and read both. */
export function corsHeaders(reqHeaders: IncomingHttpHeaders): Record<string, string> {
  const origin = reqHeaders.origin;
  const common = { [SANDBOX_HEADER]: 'true', 'access-control-expose-headers': EXPOSED };
  if (!origin) return { 'access-control-allow-origin': '*', ...common };
  return { 'access-control-allow-origin': origin, vary: 'Origin', ...common };
}

export function preflightHeaders(reqHeaders: IncomingHttpHeaders): Record<string, string> {
  return {
    ...corsHeaders(reqHeaders),
    'access-control-allow-methods': 'GET, POST, PUT, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
    'content-length': '0',
  };
}
