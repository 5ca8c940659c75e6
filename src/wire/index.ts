/** The wire contract of the valuation service, defined once for the client, the sandbox and the add-in. */
export * from './segments';
export * from './asset-id';
export * from './primitives';
export * from './errors';
export * from './auth';
export * from './assets';
export * from './valuations';
export * from './scores';
export * from './projections';
export * from './signals';
export * from './portfolio';
export * from './exit';
export * from './segments-api';
export * from './operations';
export * from './validation';
export * from './tiers';
export * from './request-id';
