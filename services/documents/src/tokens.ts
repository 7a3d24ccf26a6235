import type { Database } from '@portico/platform';
import type { DocumentsSchema } from './schema.js';

/** Injection tokens for the values the module is built from. */
export const DB = Symbol('documents.db');
export const BUS = Symbol('documents.bus');
export const CONFIG = Symbol('documents.config');
export const LOG = Symbol('documents.log');
export const OBJECT_STORE = Symbol('documents.object-store');

export type DocumentsDb = Database<DocumentsSchema>;
