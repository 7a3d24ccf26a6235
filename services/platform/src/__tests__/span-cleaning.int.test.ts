import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';

// The telemetry preload as a service loads it (built: npm run build -w @portico/platform), with the
// console exporter, in a process that runs a query PostgreSQL refuses for the value it was given.
const root = resolve(import.meta.dirname, '../../../..');

const refusedQuery = `
import pg from 'pg';
const client = new pg.Client({ connectionString: process.env.PG_URL });
await client.connect();
const failed = await client.query('select $1::uuid', [process.env.REFUSED]).then(() => 'no', (err) => err.code);
console.error('query:', failed);
await client.end();
`;

describe('the PostgreSQL span of a failed query (needs npm run build)', () => {
  it('carries the status and the code, not the value refused', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', '@portico/platform/telemetry', '--input-type=module', '-e', refusedQuery],
      {
        cwd: root,
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          OTEL_TRACES_EXPORTER: 'console',
          OTEL_SERVICE_NAME: 'span-test',
          PG_URL: process.env.TEST_PG_ADMIN_URL as string,
          // Not in the script: the exported resource quotes the process's command line.
          REFUSED: 'jane@example.com',
        },
      },
    );
    expect(stderr).toContain('query: 22P02');
    // The console exporter prints each span as it ends: the query's shows its status and exception.
    expect(stdout).toContain("name: 'pg.query:SELECT");
    expect(stdout).toMatch(
      /status: \{\s*code: 2,\s*message: 'invalid input syntax for type uuid: "\[not logged\]"'/,
    );
    expect(stdout).toContain('(code: 22P02)');
    expect(stdout).not.toContain('jane');
  });
});
