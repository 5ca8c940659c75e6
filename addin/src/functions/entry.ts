import '../shared/custom-functions-global';
import { installBrowserRuntime } from '../shared/browser-runtime';

type AnyFunction = (...args: never[]) => unknown;

/**
 * Called by the generated functions entry (addin/build/build.ts) with every metadata id and
 * its function. Excel provides CustomFunctions in the shared runtime; outside Excel (the task
 * pane opened in a plain browser) there is nothing to register with.
 */
export function registerFunctions(associations: Record<string, AnyFunction>): void {
  installBrowserRuntime();
  if (typeof CustomFunctions === 'undefined') return;
  for (const [id, fn] of Object.entries(associations)) CustomFunctions.associate(id, fn);
}
