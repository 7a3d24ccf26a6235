import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { createLogger } from '../logging/logger.js';

/** The lines a logger wrote, parsed. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger('test', 'info', stream) };
}

/** An error shaped as the database layer throws a failed query: the values in its message and fields. */
function failedQuery() {
  const values = ['jane@example.com', 'Your Acme sign-in code is 482913\n\nIt expires in 10 minutes.'];
  const cause = Object.assign(new Error('duplicate key value violates unique constraint "outbox_key"'), {
    code: '23505',
    detail: 'Key (to_address)=(jane@example.com) already exists.',
  });
  const err = Object.assign(
    new Error(
      `Failed query: insert into "outbox" ("to", "text") values ($1, $2)\nparams: ${values.join(',')}`,
    ),
    {
      name: 'DrizzleQueryError',
      query: 'insert into "outbox" ("to", "text") values ($1, $2)',
      params: values,
      cause,
    },
  );
  return err;
}

describe('logged errors', () => {
  it('keep the query, code and stack of a failed query but not the values it carried', () => {
    const { lines, logger } = capture();
    logger.error({ err: failedQuery() }, 'Unhandled error in RPC handler');
    const line = JSON.stringify(lines[0]);
    for (const secret of ['jane@example.com', '482913', 'It expires']) expect(line).not.toContain(secret);
    const err = lines[0]?.err as { message: string; stack: string; query: string; cause: { code: string } };
    expect(err.message).toBe(
      'Failed query: insert into "outbox" ("to", "text") values ($1, $2)\nparams: [not logged]',
    );
    expect(err.stack).toContain('\n    at ');
    expect(err.query).toContain('insert into "outbox"');
    expect(err.cause.code).toBe('23505');
  });
});
