import type { Database } from '@portico/platform';
import type { IdentitySchema } from './schema.js';

/** Injection tokens for the values the module is built from. */
export const DB = Symbol('identity.db');
export const BUS = Symbol('identity.bus');
export const CONFIG = Symbol('identity.config');
export const KEYS = Symbol('identity.keys');
export const LOG = Symbol('identity.log');

export type IdentityDb = Database<IdentitySchema>;
