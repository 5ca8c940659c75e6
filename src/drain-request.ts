import type { IncomingMessage } from 'node:http';

/** How much of a refused body a server reads (and discards) so its answer arrives. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 10_000;

/**
 * Reads and discards what is left of a request body, up to a bound, before the server answers.
 * A server that answers (a 413, a 401) and closes while the client is still sending its body
 * makes the client's next write fail (EPIPE, ECONNRESET): it sees a broken connection, not the
 * answer. True once the body has ended; false when it is larger or slower than the bound (the
 * caller then answers with `Connection: close` and the rest is never read).
 */
export function drainRequest(req: IncomingMessage, maxBytes = DRAIN_MAX_BYTES, maxMs = DRAIN_MAX_MS): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const timer = setTimeout(() => done(false), maxMs);
    timer.unref?.();
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(req.complete);
    function done(ended: boolean) {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      if (!ended) req.pause();
      resolve(ended);
    }
    req.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onClose);
    req.resume();
  });
}
