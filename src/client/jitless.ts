import { z } from 'zod';

/**
 * zod compiles object parsers with `new Function` for speed, and decides whether it may when
 * each schema is *built* (it probes `new Function('')` then). A page whose Content-Security-
 * Policy lacks 'unsafe-eval' (an Office add-in's task pane may have one) forbids eval: zod
 * catches the refusal and falls back, but the probe is reported as a CSP violation. So:
 *
 * - On import, before any wire schema is built (src/client/index.ts and src/index.ts import
 *   this module first), a <meta http-equiv="Content-Security-Policy"> without 'unsafe-eval'
 *   in script-src/default-src turns zod's global `jitless` on. A page that imports src/wire
 *   itself must import the client entry first.
 * - A policy sent as an HTTP header is invisible to scripts: such a host sets
 *   `globalThis.SVC_ZOD_JITLESS = true` before loading the bundle, or passes `jitless: true`
 *   to the client, which then parses every request and response without the JIT (zod's
 *   per-parse `jitless`); zod's own probe has then already fallen back safely.
 * - `jitless: false` leaves zod as it is. The setting is process-wide (zod's global config).
 */
let forced = false;

export function configureJitless(mode: boolean | 'auto'): void {
  if (mode === true || (mode === 'auto' && policyForbidsEval())) {
    forced = true;
    z.config({ jitless: true });
  }
}

/** The parse options every client-side safeParse passes. */
export function parseOptions(): { jitless: true } | undefined {
  return forced ? { jitless: true } : undefined;
}

function policyForbidsEval(): boolean {
  const g = globalThis as { SVC_ZOD_JITLESS?: unknown; document?: { querySelectorAll?(s: string): ArrayLike<{ getAttribute(n: string): string | null }> } };
  if (g.SVC_ZOD_JITLESS === true) return true;
  const doc = g.document;
  if (!doc?.querySelectorAll) return false;
  const metas = doc.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]');
  for (let i = 0; i < metas.length; i++) {
    const policy = metas[i]!.getAttribute('content') ?? '';
    const directive = /(?:^|;)\s*script-src\s+([^;]*)/i.exec(policy) ?? /(?:^|;)\s*default-src\s+([^;]*)/i.exec(policy);
    if (directive && !/'unsafe-eval'/i.test(directive[1]!)) return true;
  }
  return false;
}

configureJitless('auto');
