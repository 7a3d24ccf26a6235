import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { createServiceDatabase, uniqueDatabaseName } from '@portico/platform/testing';
import pg from 'pg';
import { render } from '../../packaging-tests/lib/kustomize.js';
import { completionOf } from '../lib/child-process.js';
import { workloadEnvironment } from '../lib/workload-env.js';

// Each service's migration job (dist/migrate.js; needs npm run build and kubectl for kustomize) run as
// the production overlay's Job runs it: with its ConfigMaps, its own values and its DATABASE_URL Secret,
// nothing more.
const root = resolve(import.meta.dirname, '../../..');
const SERVICES = ['identity', 'documents', 'notifications'];

/** The environment of `service`'s migration Job in the production overlay, its DATABASE_URL Secret being `databaseUrl`. */
function jobEnvironment(service: string, databaseUrl: string): Record<string, string> {
  return workloadEnvironment(render('k8s/overlays/production'), 'Job', `${service}-migrate`, {
    DATABASE_URL: databaseUrl,
  }).env;
}

function runJob(service: string, env: Record<string, string>) {
  return completionOf(
    spawn(process.execPath, [join(root, `services/${service}/dist/migrate.js`)], {
      cwd: join(root, 'services', service),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

async function tablesOf(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public'`,
    );
    return rows.map((r) => r.table_name);
  } finally {
    await client.end();
  }
}

describe.each(SERVICES)('the %s migration job (needs npm run build)', (service) => {
  it('applies the migrations with only the environment its Job gives, and again with nothing to do', async () => {
    const databaseUrl = await createServiceDatabase(
      process.env.TEST_PG_ADMIN_URL as string,
      uniqueDatabaseName(`${service}_migrate`),
    );
    const first = await runJob(service, jobEnvironment(service, databaseUrl));
    expect(first).toMatchObject({ code: 0, output: expect.stringContaining('Migrations applied') });
    expect((await tablesOf(databaseUrl)).length).toBeGreaterThan(0);
    const again = await runJob(service, jobEnvironment(service, databaseUrl));
    expect(again.code).toBe(0);
  });

  it('fails with the reason when DATABASE_URL is missing or the database cannot be reached', async () => {
    const { DATABASE_URL: _, ...withoutUrl } = jobEnvironment(service, '');
    const missing = await runJob(service, withoutUrl);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('DATABASE_URL');

    // A port nothing listens on: refused at once.
    const unreachable = await runJob(service, jobEnvironment(service, 'postgres://portico@127.0.0.1:9/none'));
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toContain('Migrations failed');
  });
});
