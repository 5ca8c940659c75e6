/** The package's public entry: the API client and the wire contract it speaks. */
// First: decides zod's jitless mode before any wire schema is built (see client/jitless.ts).
import './client/jitless';
export * from './wire';
export * from './client';
