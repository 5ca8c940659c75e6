/**
 * The response header naming the request (docs/decisions.md): the spec is silent; the sandbox
 * sends it on every answer, as most API gateways do, and the client puts it on every error.
 */
export const REQUEST_ID_HEADER = 'x-request-id';
