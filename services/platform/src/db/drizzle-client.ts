import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { isUuid } from '../text/text.rules.js';

/** What a drizzle database was made from: its pg pool (when it has one) and its schema. */
type DrizzleInternals = { $client: unknown; _: { fullSchema?: Record<string, unknown> } };

/** The pg pool under a drizzle database, or undefined when it sits on something else. */
export function poolOf(db: object): pg.Pool | undefined {
  const client = (db as DrizzleInternals).$client;
  return client instanceof pg.Pool ? client : undefined;
}

/** A drizzle database with `db`'s schema on another pg client (a checked-out connection, say). */
export function sameSchemaOn<D>(db: object, client: unknown): D {
  const schema = (db as DrizzleInternals)._.fullSchema;
  return drizzle(client as pg.PoolClient, schema ? { schema } : {}) as unknown as D;
}

/** A firm id that goes into a statement's text or a setting must be a plain UUID. */
export function assertFirmUuid(firmId: string): void {
  if (!isUuid(firmId)) throw new Error('A firm scope needs a UUID');
}
