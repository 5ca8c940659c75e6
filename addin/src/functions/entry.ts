import '../shared/custom-functions-global';
import { installBrowserRuntime } from '../shared/browser-runtime';

type AnyFunction = (...args: never[]) => unknown;

/**
 * Called by the generated functions entry (addin/build/build.ts) with every metadata id and
 * its function. Excel provides CustomFunctions in the shared runtime; outside Excel (the task
 * pane opened in a plain browser) there is nothing to register with.
 */
export function registerFunctions(associations: Record<string, AnyFunction>): void {
  if (typeof CustomFunctions !== 'undefined') {
    for (const [id, fn] of Object.entries(associations)) CustomFunctions.associate(id, fn);
  }
  // After associating: if the runtime cannot start, cells say why (#N/A) instead of #NAME?.
  try {
    installBrowserRuntime();
  } catch (err) {
    console.error('SVC add-in: the functions runtime did not start:', err instanceof Error ? err.message : err);
  }
}
