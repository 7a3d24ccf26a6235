import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { isQueryReadTimeout } from '../errors/postgres-errors.js';
import type { Database, FirmScope } from './database.js';
import {
  connectWithinDeadline,
  deadlineErrorOf,
  statementTimeoutWithinDeadline,
  unwrapDeadlinePassed,
} from './deadline-limits.js';
import { assertFirmUuid, poolOf, sameSchemaOn } from './drizzle-client.js';

/** The row-level-security setting a read runs under. */
interface ReadScope {
  readonly setting: 'app.firm_id' | 'app.bypass_rls';
  readonly value: string;
}

type QueryCallback = (err: Error | null, result: pg.QueryResult) => void;
type ProtocolConnection = {
  parse(msg: { text: string; name: string; types: unknown[] }): void;
  bind(msg: {
    portal: string;
    statement: string;
    values: unknown[];
    binary?: boolean;
    valueMapper?: (value: unknown) => unknown;
  }): void;
  execute(msg: { portal: string; rows?: number }): void;
  describe(msg: { type: 'P'; name: string }): void;
  sync(): void;
  submittedNamedStatements: Record<string, string>;
};

/** The parts of pg's Query this subclass uses (pg's own typings do not describe them). */
interface QueryInternals {
  text: string;
  name?: string;
  types?: unknown[];
  values?: unknown[];
  portal: string;
  binary?: boolean;
  rows?: number;
  hasBeenParsed(connection: ProtocolConnection): boolean;
  _getRows(connection: ProtocolConnection, rows?: number): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: ProtocolConnection): void;
  handleError(err: Error, connection: ProtocolConnection): void;
}

// pg's own value conversion for bind parameters (dates, buffers, arrays, JSON).
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils;

const SET_SCOPE = 'select set_config($1, $2, true)';
/** The scope and a statement timeout of the time the request's caller still waits, for the query after it. */
const SET_SCOPE_AND_TIMEOUT = `select set_config($1, $2, true), set_config('statement_timeout', $3, true)`;

/**
 * A query sent in one write together with the statement that sets its scope: Parse/Bind/Execute of
 * set_config, then the query's own Bind/Describe/Execute, then one Sync. Outside BEGIN, every
 * statement up to Sync runs in one implicit transaction, so the transaction-local setting holds for
 * the query and ends with it: one round trip where begin / set / query / commit took three. Inside a
 * request with a deadline, the same statement sets a local statement timeout of the time left.
 */
class ScopedQuery extends (pg.Query as unknown as new (
  config: pg.QueryConfig,
  values: unknown[] | undefined,
  callback: QueryCallback,
) => QueryInternals) {
  #scopeRowsPending = true;

  constructor(
    config: pg.QueryConfig,
    private readonly scope: ReadScope,
    private readonly statementTimeoutMs: number | undefined,
    callback: QueryCallback,
  ) {
    super(config, undefined, callback);
  }

  requiresPreparation() {
    return true;
  }

  prepare(connection: ProtocolConnection) {
    // A named query is parsed first, so the first ParseComplete the client sees is its own (the
    // client marks the named statement parsed on it); an unnamed one after the set_config statement,
    // which uses the unnamed statement slot before it.
    const named = !!this.name;
    if (named && !this.hasBeenParsed(connection)) {
      connection.parse({ text: this.text, name: this.name as string, types: this.types ?? [] });
      connection.submittedNamedStatements[this.name as string] = this.text;
    }
    const limited = this.statementTimeoutMs !== undefined;
    connection.parse({ text: limited ? SET_SCOPE_AND_TIMEOUT : SET_SCOPE, name: '', types: [] });
    connection.bind({
      portal: '',
      statement: '',
      values: limited
        ? [this.scope.setting, this.scope.value, String(this.statementTimeoutMs)]
        : [this.scope.setting, this.scope.value],
    });
    connection.execute({ portal: '' });
    if (!named) connection.parse({ text: this.text, name: '', types: this.types ?? [] });
    try {
      connection.bind({
        portal: this.portal,
        statement: this.name ?? '',
        values: this.values ?? [],
        binary: this.binary,
        valueMapper: prepareValue,
      });
    } catch (err) {
      connection.sync();
      this.handleError(err as Error, connection);
      return;
    }
    connection.describe({ type: 'P', name: this.portal || '' });
    this._getRows(connection, this.rows);
  }

  // The set_config statement's row and completion come first, with no row description: skip them.
  override handleDataRow(msg: unknown) {
    if (!this.#scopeRowsPending) super.handleDataRow(msg);
  }

  override handleCommandComplete(msg: unknown, connection: ProtocolConnection) {
    if (this.#scopeRowsPending) this.#scopeRowsPending = false;
    else super.handleCommandComplete(msg, connection);
  }
}

const currentScope = new AsyncLocalStorage<ReadScope>();

/** What drizzle sees as its client: each query takes a pooled connection and runs in the current scope. */
class ScopedReadClient {
  constructor(private readonly pool: pg.Pool) {}

  async query(config: pg.QueryConfig | string, values?: unknown[]): Promise<pg.QueryResult> {
    const scope = currentScope.getStore();
    if (!scope) throw new Error('A scoped read ran outside readInFirm or readAcrossFirms');
    const queryConfig: pg.QueryConfig =
      typeof config === 'string' ? { text: config, values } : { ...config, values: values ?? config.values };
    const client = await connectWithinDeadline(this.pool);
    let timeoutMs: number | undefined;
    // A connection whose answer never came is ended, not given back to the pool for another request.
    let broken: Error | undefined;
    try {
      timeoutMs = statementTimeoutWithinDeadline(this.pool);
      return await new Promise<pg.QueryResult>((resolve, reject) => {
        client.query(
          new ScopedQuery(queryConfig, scope, timeoutMs, (err, result) =>
            err ? reject(err) : resolve(result),
          ) as never,
        );
      });
    } catch (err) {
      if (isQueryReadTimeout(err)) broken = err as Error;
      throw deadlineErrorOf(err, timeoutMs);
    } finally {
      client.release(broken);
    }
  }
}

const readers = new WeakMap<object, Database>();

/**
 * The query builder for scoped reads on `db`'s pool. A statement built on it (prepared once with
 * `.prepare(name)`, or built per call) only runs inside `readInFirm` / `readAcrossFirms`.
 */
export function scopedReader<S extends Record<string, unknown>>(db: Database<S>): Database<S> {
  let reader = readers.get(db);
  if (!reader) {
    const pool = poolOf(db);
    if (!pool) throw new Error('Scoped reads need a pooled database');
    reader = sameSchemaOn<Database>(db, new ScopedReadClient(pool));
    readers.set(db, reader);
  }
  return reader as Database<S>;
}

/**
 * Read-only work under the firm's row-level-security setting, each statement in one round trip with
 * its setting. Each statement is its own transaction, as each already sees its own snapshot under READ
 * COMMITTED; work that writes, or needs several statements to agree, uses `inFirm`.
 */
export function readInFirm<S extends Record<string, unknown>, T>(
  db: Database<S>,
  scope: FirmScope,
  work: (reader: Database<S>) => Promise<T>,
): Promise<T> {
  assertFirmUuid(scope.firmId);
  return currentScope.run({ setting: 'app.firm_id', value: scope.firmId }, () => readWithin(db, work));
}

/** Read-only work across firms (sign-in by email, token refresh), each call site saying why. */
export function readAcrossFirms<S extends Record<string, unknown>, T>(
  db: Database<S>,
  work: (reader: Database<S>) => Promise<T>,
): Promise<T> {
  return currentScope.run({ setting: 'app.bypass_rls', value: 'on' }, () => readWithin(db, work));
}

/** Awaited inside the scope (a query builder only starts when awaited); a deadline's 504 as itself. */
async function readWithin<S extends Record<string, unknown>, T>(
  db: Database<S>,
  work: (reader: Database<S>) => Promise<T>,
): Promise<T> {
  try {
    return await work(scopedReader(db));
  } catch (err) {
    throw unwrapDeadlinePassed(err);
  }
}
