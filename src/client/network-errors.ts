import { ConnectionError } from './errors';

/**
 * Error codes meaning the request never left this machine, so repeating even a
 * non-idempotent call cannot create anything twice. Node's fetch puts them on `cause.code`;
 * browsers say nothing (a CORS refusal and a reset look alike), so there the answer is "maybe
 * sent".
 */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function connectionError(e: unknown, operation: string, baseUrl: string): ConnectionError {
  const code = errorCode(e);
  const notSent = code !== undefined && NOT_SENT_CODES.has(code);
  const what = code === 'ECONNREFUSED' ? 'refused the connection' : code ? `could not be reached (${code})` : 'could not be reached';
  return new ConnectionError({
    status: 0,
    type: 'connection_error',
    action: 'retry_with_backoff',
    message: `The service at ${baseUrl} ${what}.`,
    operation,
    notSent,
    cause: e,
  });
}
