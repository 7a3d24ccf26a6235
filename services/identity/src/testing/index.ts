export * from '../seed/firm-builder.js';
export * from './fixtures.js';
export * from './start-identity.js';
