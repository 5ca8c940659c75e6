import { z } from 'zod';

/**
 * zod compiles object parsers with `new Function` for speed. A page whose Content-Security-
 * Policy lacks 'unsafe-eval' (an Office add-in's task pane may have one) forbids that. zod
 * probes for it itself, but the probe is reported as a CSP violation, so:
 * - `true` turns the JIT off up front (zod's global `jitless` setting: it applies to every
 *   schema in the page, which is what a CSP wants anyway);
 * - `'auto'` (default) does so when a <meta http-equiv="Content-Security-Policy"> forbids
 *   eval; a policy sent as an HTTP header is invisible to scripts, and there zod's own probe
 *   falls back safely;
 * - `false` leaves zod as it is.
 */
export function configureJitless(mode: boolean | 'auto'): void {
  if (mode === true || (mode === 'auto' && metaPolicyForbidsEval())) z.config({ jitless: true });
}

function metaPolicyForbidsEval(): boolean {
  const doc = (globalThis as { document?: { querySelectorAll?(s: string): ArrayLike<{ getAttribute(n: string): string | null }> } }).document;
  if (!doc?.querySelectorAll) return false;
  const metas = doc.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]');
  for (let i = 0; i < metas.length; i++) {
    const policy = metas[i]!.getAttribute('content') ?? '';
    const directive = /(?:^|;)\s*script-src\s+([^;]*)/i.exec(policy) ?? /(?:^|;)\s*default-src\s+([^;]*)/i.exec(policy);
    if (directive && !/'unsafe-eval'/i.test(directive[1]!)) return true;
  }
  return false;
}
