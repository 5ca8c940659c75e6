import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UpstreamProxy {
  /** The proxy's address, ending in /v1 like the service's. */
  url: string;
  close(): Promise<void>;
}

/**
 * A service in front of the sandbox, over real HTTP, that can misbehave: `hold` delays a
 * request (injected latency, released by an event), `rewrite` changes an answer's body, `fail`
 * answers an error instead. Used
 * to give the add-in a service that answers for another asset, or slow round trips.
 */
export async function startUpstreamProxy(
  sandboxUrl: string,
  hooks: {
    hold?: (path: string) => Promise<void> | undefined;
    rewrite?: (path: string, body: string) => string;
    /** A status to answer with instead of the sandbox (an error body in the service's shape), e.g. 503 for one operation. */
    fail?: (method: string, path: string) => number | undefined;
  } = {},
): Promise<UpstreamProxy> {
  const base = sandboxUrl.replace(/\/v1$/, '');
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = req.url ?? '/';
    await hooks.hold?.(path);
    const failWith = hooks.fail?.(req.method ?? 'GET', path);
    if (failWith !== undefined) {
      res.writeHead(failWith, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: failWith, type: 'internal_error', message: 'The service is temporarily unavailable.' } }));
      return;
    }
    const answer = await fetch(`${base}${path}`, {
      method: req.method,
      headers: Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
    });
    let body = await answer.text();
    if (answer.ok && hooks.rewrite) body = hooks.rewrite(path, body);
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => k === 'content-type' || k.startsWith('x-') || k === 'retry-after')));
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
