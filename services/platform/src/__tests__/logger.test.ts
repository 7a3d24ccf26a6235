import { describe, expect, it } from '@jest/globals';
import { JsonNestLogger, withoutRejectedValue } from '../logging/logger.js';
import { capturedLog } from '../testing/captured-log.js';

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
    const { lines, logger } = capturedLog();
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

  /** PostgreSQL's refusal of a value, as pg throws it (the stack opens with the message) and a query builder wraps it. */
  function refusedValue(code: string, message: string, where?: string) {
    const cause = Object.assign(new Error(message), { name: 'error', code, ...(where ? { where } : {}) });
    cause.stack = `error: ${message}\n    at Parser.parseErrorMessage (parser.js:1:1)`;
    return new Error('Failed query: insert into "users" ("email") values ($1)\nparams: jane@example.com', {
      cause,
    });
  }

  it('replace the value PostgreSQL quotes in its refusal of a value, in the message and the stack', () => {
    const refusals: [string, string, string][] = [
      [
        '22P02',
        'invalid input syntax for type uuid: "jane@example.com"',
        'invalid input syntax for type uuid: "[not logged]"',
      ],
      [
        '22P02',
        'invalid input value for enum "user role": "jane@example.com"',
        'invalid input value for enum "user role": "[not logged]"',
      ],
      [
        '22007',
        'invalid input syntax for type timestamp with time zone: "jane "x" @example.com"',
        'invalid input syntax for type timestamp with time zone: "[not logged]"',
      ],
      [
        '22008',
        'date/time field value out of range: "jane@example.com"',
        'date/time field value out of range: "[not logged]"',
      ],
      ['22007', 'invalid value "jane@example.com" for "YYYY"', 'invalid value "[not logged]" for "YYYY"'],
    ];
    for (const [code, message, logged] of refusals) {
      const { lines, logger } = capturedLog();
      logger.error({ err: refusedValue(code, message, 'JSON data, line 1: jane@example...') }, 'Failed');
      expect(JSON.stringify(lines[0])).not.toContain('jane');
      const cause = (lines[0]?.err as { cause: Record<string, unknown> } | undefined)?.cause ?? {};
      expect(cause).toMatchObject({ code, message: logged });
      expect(cause.stack).toBe(`error: ${logged}\n    at Parser.parseErrorMessage (parser.js:1:1)`);
      expect(cause).not.toHaveProperty('where');
    }
    // Any other quoting of a refused value goes whole.
    expect(withoutRejectedValue('malformed "jane@example.com" somewhere')).toBe(
      'malformed "[not logged]" somewhere',
    );
  });

  it('keep the message of other errors as it is, quotes and all', () => {
    const { lines, logger } = capturedLog();
    const message = 'relation "users" does not exist';
    logger.error({ err: Object.assign(new Error(message), { code: '42P01' }) }, 'Failed');
    expect(lines[0]?.err).toMatchObject({ code: '42P01', message });
  });
});

describe("Nest's error lines", () => {
  it('log an Error given as the message as `err`, cleaned, with its stack and context', () => {
    const { lines, logger } = capturedLog();
    new JsonNestLogger(logger).error(failedQuery(), undefined, 'Server');
    const line = lines[0] as { msg: string; context: string; err: { message: string; stack: string } };
    for (const secret of ['jane@example.com', '482913']) expect(JSON.stringify(line)).not.toContain(secret);
    expect(line.context).toBe('Server');
    expect(line.msg).toBe(
      'Failed query: insert into "outbox" ("to", "text") values ($1, $2)\nparams: [not logged]',
    );
    expect(line.err.message).toBe(line.msg);
    expect(line.err.stack).toContain('\n    at ');
  });

  it('clean a message and trace given as text', () => {
    const { lines, logger } = capturedLog();
    const err = failedQuery();
    new JsonNestLogger(logger).error(err.message, err.stack, 'ExceptionsHandler');
    const line = lines[0] as { msg: string; stack: string; context: string };
    expect(JSON.stringify(line)).not.toContain('jane@example.com');
    expect(line.stack).toContain('params: [not logged]\n    at ');
    expect(line.context).toBe('ExceptionsHandler');
  });
});

describe('a URL refused by its parser', () => {
  it('is logged without the input it quoted (a password)', () => {
    const { lines, logger } = capturedLog();
    let refused: unknown;
    try {
      new URL('http://user:s3cr#et@host');
    } catch (err) {
      refused = err;
    }
    expect((refused as { input?: string }).input).toContain('s3cr');
    logger.fatal({ err: new Error('Could not start', { cause: refused }) }, 'Start failed');
    expect(JSON.stringify(lines[0])).not.toContain('s3cr');
    expect(lines[0]?.err).toMatchObject({ cause: { code: 'ERR_INVALID_URL' } });
  });
});
