export * from './client.js';
export * from './errors.js';
export * from './public-queries.js';
export type { Rest, RestInput, SnakeCase } from './rest.js';
export * from './sessions.js';
export * from './users.js';
