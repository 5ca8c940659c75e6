import type { Server } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './http-util';
import { hostText } from './host-text';

/** How long a stopping host lets the requests in flight finish (ADDIN_SHUTDOWN_SECONDS). */
export const DEFAULT_SHUTDOWN_MS = 10_000;

export interface DrainOutcome {
  /** Requests that finished normally after the stop began. */
  finished: number;
  /** Requests still unanswered at the bound: each got a 503 (or, with its answer half sent, its connection closed). */
  cutShort: number;
}

/**
 * Graceful stop for the host (SIGTERM during a deploy): no new connection is accepted; a
 * request that still arrives on a kept-alive connection is refused with 503 and the
 * connection closed; every request in flight may finish, each answer closing its connection;
 * at the bound, whatever is still unanswered gets a 503 rather than a cut connection.
 */
export class Drain {
  private readonly inFlight = new Set<ServerResponse>();
  private draining = false;
  private finishedSince = 0;
  private idle: (() => void) | undefined;
  /** Refused because the host is stopping, their 503 not yet out (it waits for the body to be read, bounded). */
  private readonly refusing = new Set<ServerResponse>();

  get active(): boolean {
    return this.draining;
  }

  /** Number of requests being handled now. */
  get size(): number {
    return this.inFlight.size;
  }

  /** Call first thing for each request: false when it was refused because the host is stopping. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.draining) {
      res.shouldKeepAlive = false;
      // The stop waits for this answer too: closing every connection before it is out would cut it.
      this.refusing.add(res);
      res.once('close', () => {
        this.refusing.delete(res);
        this.settled();
      });
      sendError(res, 503, 'shutting_down', hostText('addin.host_restarting'), { action: 'retry_later' }, { 'retry-after': '5', connection: 'close' });
      return false;
    }
    this.inFlight.add(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      if (this.draining) {
        this.finishedSince++;
        // An answered request's connection is not kept for another one.
        req.socket.end();
        this.settled();
      }
    });
    return true;
  }

  /** Stops the server accepting and waits for the requests in flight, at most `boundMs`. */
  async stop(server: Server, boundMs = DEFAULT_SHUTDOWN_MS): Promise<DrainOutcome> {
    this.draining = true;
    for (const res of this.inFlight) res.shouldKeepAlive = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Connections with nothing in flight are closed now; busy ones close as their answer goes out.
    server.closeIdleConnections();
    if (this.inFlight.size > 0 || this.refusing.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        timer = setTimeout(resolve, boundMs);
      });
      clearTimeout(timer);
    }
    const cutShort = this.inFlight.size;
    for (const res of [...this.inFlight]) {
      if (!res.headersSent) sendError(res, 503, 'shutting_down', hostText('addin.host_stopped'), { action: 'retry_later' }, { 'retry-after': '5', connection: 'close' });
      else res.destroy();
    }
    for (const res of this.refusing) res.destroy();
    server.closeAllConnections();
    await closed;
    return { finished: this.finishedSince, cutShort };
  }

  /** Nothing in flight and no refusal still going out: the stop may go on. */
  private settled(): void {
    if (this.draining && this.inFlight.size === 0 && this.refusing.size === 0) this.idle?.();
  }
}
