import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildAddin } from '../../addin/build/build';
import { startStack, type Stack } from './stack';
import { writeHoldings, writeStandinPages } from './browser-pages';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { startOidcProvider, type OidcProvider } from '../support/oidc-provider';

const AUDIENCE = 'api://addin.example.com/browser-test';

/**
 * A token provider in place of the Office host's broker (sign-in.ts reads window.__svcTokenBroker):
 * nobody is signed in until the pane's sign-in button asks it, then it gives a real token of the
 * local OpenID provider. A file, not inline: the host's CSP allows no inline script.
 */
function brokerScript(token: string): string {
  return `window.__svcTokenBroker = {
  signedIn: false,
  interactiveCalls: 0,
  async silent() { return this.signedIn ? ${JSON.stringify(token)} : undefined; },
  async interactive() { this.interactiveCalls++; this.signedIn = true; return ${JSON.stringify(token)}; },
  user() { return this.signedIn ? { name: 'Ana Ortiz' } : undefined; },
};`;
}

interface CellResult {
  ok: boolean;
  value?: unknown;
  code?: string;
  message?: string;
}

describe('sign-in in the browser: the task pane and the cells against a host in entra mode (chromium)', () => {
  let idp: OidcProvider;
  let stack: Stack;
  let dist: string;
  let browser: Browser;
  let asset: string;

  async function page(file: string): Promise<Page> {
    const p = await browser.newPage({ viewport: { width: 360, height: 900 } });
    await p.goto(`${stack.host.url}/${file}`);
    return p;
  }

  beforeAll(async () => {
    idp = await startOidcProvider();
    dist = await mkdtemp(path.join(tmpdir(), 'svc-auth-browser-'));
    await buildAddin({ outDir: dist });
    await writeStandinPages(dist);
    await writeHoldings(dist, [['Segment', 'Brand', 'Model'], ['watches', 'Rolex', 'Submariner']]);
    await writeFile(path.join(dist, 'token-broker.js'), brokerScript(await idp.token(AUDIENCE, { claims: { oid: 'oid-ana', name: 'Ana Ortiz' } })));
    for (const file of ['taskpane-standin.html', 'cf-standin.html']) {
      const html = await readFile(path.join(dist, file), 'utf8');
      const withBroker = html.replace('<head>', '<head><script src="token-broker.js"></script>');
      expect(withBroker).not.toBe(html);
      await writeFile(path.join(dist, file), withBroker);
    }
    stack = await startStack({ host: { distDir: dist, auth: { mode: 'entra', entra: { issuer: idp.issuer, audiences: [AUDIENCE] } } } });
    asset = (await realCatalogueIds(stack.sandboxUrl, stack.account, 1))[0]!;
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await idp?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it('the pane shows a sign-in button when nobody is signed in, and who is signed in after it is clicked', async () => {
    const p = await page('taskpane-standin.html');
    await p.waitForFunction(() => !document.getElementById('sign-in')!.hidden);
    expect(await p.textContent('#signed-in-as')).toMatch(/Not signed in/);
    expect(await p.isVisible('#sign-in-button')).toBe(true);
    // Without a token the host refuses the status: the pane says to sign in.
    await p.waitForFunction(() => document.getElementById('status-problem')!.textContent !== '');
    expect(await p.textContent('#status-problem')).toMatch(/Sign in to SVC in the task pane/);
    await p.click('#sign-in-button');
    await p.waitForFunction(() => document.getElementById('signed-in-as')!.textContent!.startsWith('Signed in as'));
    expect(await p.textContent('#signed-in-as')).toBe('Signed in as Ana Ortiz');
    expect(await p.isVisible('#sign-in-button')).toBe(false);
    expect(await p.evaluate(() => (window as unknown as { __svcTokenBroker: { interactiveCalls: number } }).__svcTokenBroker.interactiveCalls)).toBe(1);
    // With the token, the status goes through.
    await p.waitForFunction(() => document.getElementById('status-service')!.textContent!.includes('connected') && !document.getElementById('status-service')!.textContent!.includes('not connected'));
    await p.close();
  });

  it('a cell answers #N/A "Sign in to SVC in the task pane." without a token, and its value once signed in', async () => {
    const p = await page('cf-standin.html');
    const invoke = (a: string) => p.evaluate((x) => (window as unknown as { __invoke(id: string, args: unknown[]): Promise<unknown> }).__invoke('MIDVALUE', [x]), a) as Promise<CellResult>;
    const before = await invoke(asset);
    expect(before).toMatchObject({ ok: false, code: '#N/A', message: 'Sign in to SVC in the task pane.' });
    await p.evaluate(() => {
      (window as unknown as { __svcTokenBroker: { signedIn: boolean } }).__svcTokenBroker.signedIn = true;
    });
    const after = await invoke(asset);
    expect(after.ok).toBe(true);
    expect(typeof after.value === 'number' || typeof after.value === 'object').toBe(true);
    await p.close();
  });
});
