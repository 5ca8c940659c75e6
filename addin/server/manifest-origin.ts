import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The origin the built manifest sends Excel to: its task pane's SourceLocation. */
export function manifestOrigin(xml: string): string | undefined {
  const m = /<SourceLocation\s+DefaultValue="([^"]+)"/.exec(xml);
  if (!m) return undefined;
  try {
    return new URL(m[1]!).origin;
  } catch {
    return undefined;
  }
}

/** localhost and 127.0.0.1 are one address to a browser on this machine: the scheme and port decide. */
function sameAddress(a: URL, b: URL): boolean {
  const loopback = (h: string) => (h === 'localhost' || h === '127.0.0.1' || h === '[::1]' ? 'loopback' : h);
  return a.protocol === b.protocol && a.port === b.port && loopback(a.hostname) === loopback(b.hostname);
}

/**
 * Why the manifest this host serves would send Excel elsewhere (built for another port or origin,
 * e.g. ADDIN_PORT changed after `npm run addin:build`), with the command that fixes it; undefined
 * when it names this host, or when there is no built manifest to check.
 */
export async function staleManifestWarning(distDir: string, servedOrigin: string): Promise<string | undefined> {
  const xml = await readFile(path.join(distDir, 'manifest.xml'), 'utf8').catch(() => undefined);
  const named = xml === undefined ? undefined : manifestOrigin(xml);
  if (named === undefined || sameAddress(new URL(named), new URL(servedOrigin))) return undefined;
  const served = new URL(servedOrigin).origin;
  return (
    `The add-in's manifest (${path.join(distDir, 'manifest.xml')}) names ${named}, but this host serves ${served}: ` +
    `Excel would load the add-in from the other address. Rebuild it for this one: ADDIN_ORIGIN=${served} npm run addin:build, then sideload or deploy the new manifest.`
  );
}
