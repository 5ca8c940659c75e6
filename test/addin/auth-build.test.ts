import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAddin } from '../../addin/build/build';

const CLIENT_ID = '0b7e0c55-1c3f-4f6e-9a53-2f1d1c8a9e01';
const schema = path.join(import.meta.dirname, 'schemas/office-addin-manifest/OfficeAppManifestV1_1.xsd');
/** xmllint against the vendored Office schemas (the Runtimes element is newer than the vendored XSD, as in metadata.test.ts). */
const validate = (xml: string) => execFileSync('sh', ['-c', `sed '/<Runtimes>/,/<\\/Runtimes>/d' | xmllint --noout --nonet --schema '${schema}' - 2>&1`], { input: xml }).toString();

describe('addin:build with Entra ID sign-in settings', () => {
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'svc-auth-build-'));
    await buildAddin({ outDir: dist, origin: 'https://valuations-addin.example.com', signIn: { clientId: CLIENT_ID, tenant: 'contoso.onmicrosoft.com' } });
  }, 120_000);
  afterAll(async () => {
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it('writes <WebApplicationInfo> into the manifest, which still validates against the Office schemas', async () => {
    const xml = await readFile(path.join(dist, 'manifest.xml'), 'utf8');
    expect(xml).toContain(`<WebApplicationInfo>\n      <Id>${CLIENT_ID}</Id>\n      <Resource>api://valuations-addin.example.com/${CLIENT_ID}</Resource>`);
    expect(validate(xml)).toMatch(/validates/);
  });

  it("writes the MSAL configuration (client id, the tenant's authority, the API scope) to auth-config.json, and no secret", async () => {
    const config = JSON.parse(await readFile(path.join(dist, 'auth-config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toEqual({ clientId: CLIENT_ID, authority: 'https://login.microsoftonline.com/contoso.onmicrosoft.com', scopes: [`api://valuations-addin.example.com/${CLIENT_ID}/access_as_user`] });
  });

  it('without sign-in settings auth-config.json says so (the pages then sign nobody in) and there is no WebApplicationInfo', async () => {
    const plain = await mkdtemp(path.join(tmpdir(), 'svc-auth-build-plain-'));
    try {
      await buildAddin({ outDir: plain });
      expect(JSON.parse(await readFile(path.join(plain, 'auth-config.json'), 'utf8'))).toEqual({ sign_in: false });
      expect(await readFile(path.join(plain, 'manifest.xml'), 'utf8')).not.toContain('WebApplicationInfo');
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a client id that is not a GUID and a shared tenant endpoint, naming the setting', async () => {
    await expect(buildAddin({ outDir: path.join(dist, 'x'), signIn: { clientId: 'not-a-guid', tenant: 'contoso.onmicrosoft.com' } })).rejects.toThrow(/ADDIN_AUTH_CLIENT_ID must be .* a GUID/);
    await expect(buildAddin({ outDir: path.join(dist, 'y'), signIn: { clientId: CLIENT_ID, tenant: 'common' } })).rejects.toThrow(/ADDIN_AUTH_TENANT must be your tenant id/);
  });
});
