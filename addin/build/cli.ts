/**
 * npm run addin:build [-- --origin https://addin.example.com] [--deployment-key KEY] [--no-minify]
 * Also read from ADDIN_ORIGIN and ADDIN_DEPLOYMENT_KEY.
 */
import path from 'node:path';
import { Command } from 'commander';
import { buildAddin, MetadataError } from './build';

const program = new Command()
  .name('addin:build')
  .description('Bundle the Excel add-in into addin/dist and generate functions.json and manifest.xml.')
  .option('--origin <url>', 'origin the add-in is served from', process.env.ADDIN_ORIGIN)
  .option('--deployment-key <key>', 'deployment key the host requires (goes into the manifest)', process.env.ADDIN_DEPLOYMENT_KEY)
  .option('--auth-client-id <guid>', "Entra ID sign-in: the app registration's client id (auth-config.json, WebApplicationInfo)", process.env.ADDIN_AUTH_CLIENT_ID)
  .option('--auth-tenant <tenant>', 'Entra ID sign-in: the tenant id or domain', process.env.ADDIN_AUTH_TENANT)
  .option('--auth-resource <uri>', 'Entra ID sign-in: the Application ID URI (default api://<origin host>/<client id>)', process.env.ADDIN_AUTH_RESOURCE)
  .option('--release <label>', "release label the pane shows (default the package's version)", process.env.ADDIN_RELEASE)
  .option('--out <dir>', 'output folder')
  .option('--no-minify', 'readable bundles');
program.parse();
const opts = program.opts<{ origin?: string; deploymentKey?: string; authClientId?: string; authTenant?: string; authResource?: string; release?: string; out?: string; minify: boolean }>();
if ((opts.authClientId === undefined) !== (opts.authTenant === undefined)) {
  console.error('addin:build failed: ADDIN_AUTH_CLIENT_ID and ADDIN_AUTH_TENANT go together (Entra ID sign-in): give both, or neither.');
  process.exit(1);
}
const signIn = opts.authClientId && opts.authTenant ? { clientId: opts.authClientId, tenant: opts.authTenant, resource: opts.authResource } : undefined;

try {
  const result = await buildAddin({ origin: opts.origin, deploymentKey: opts.deploymentKey, signIn, outDir: opts.out ? path.resolve(opts.out) : undefined, minify: opts.minify, release: opts.release });
  console.log(
    `Built ${result.functionIds.length} functions (SVC.${result.functionIds.join(', SVC.')}) into ${path.relative(process.cwd(), result.outDir)}; ` +
      `functions.js ${(result.functionsBytes / 1024).toFixed(1)} KiB (${(result.functionsGzipBytes / 1024).toFixed(1)} KiB gzip); manifest origin ${result.origin}; release ${result.release}, version ${result.version}.`,
  );
} catch (err) {
  console.error(err instanceof MetadataError || err instanceof Error ? `addin:build failed: ${err.message}` : err);
  process.exitCode = 1;
}
