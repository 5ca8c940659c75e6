/** The package's public entry: the API client and the wire contract it speaks. */
export * from './wire';
export * from './client';
