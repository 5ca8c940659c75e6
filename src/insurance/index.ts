export * from './types';
export * from './review';
