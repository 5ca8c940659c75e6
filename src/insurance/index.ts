export * from './types';
export * from './review';
export * from './status-words';
