import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { createServiceDatabase, uniqueDatabaseName } from '@portico/platform/testing';
import pg from 'pg';
import { parseYamlDocuments } from '../../packaging-tests/lib/repo.js';

// Each service's migration job (dist/migrate.js, needs npm run build) run as its Kubernetes Job runs it:
// with the shared ConfigMap's environment, the Job's own values and its DATABASE_URL Secret, nothing more.
const root = resolve(import.meta.dirname, '../../..');
const SERVICES = ['identity', 'documents', 'notifications'];

type EnvEntry = { name: string; value?: string; valueFrom?: { secretKeyRef?: { key: string } } };
type Job = { kind: string; spec: { template: { spec: { containers: { env?: EnvEntry[] }[] } } } };

/** The literals of the portico-common ConfigMap every Deployment and Job reads (envFrom). */
function commonEnvironment(): Record<string, string> {
  const [kustomization] = parseYamlDocuments(
    readFileSync(join(root, 'k8s/base/common/kustomization.yaml'), 'utf8'),
    'common',
  ) as { configMapGenerator: { name: string; literals: string[] }[] }[];
  const common = kustomization?.configMapGenerator.find((g) => g.name === 'portico-common');
  return Object.fromEntries(
    (common?.literals ?? []).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** The environment of `service`'s migration Job, its DATABASE_URL Secret being `databaseUrl`. */
function jobEnvironment(service: string, databaseUrl: string): Record<string, string> {
  const objects = parseYamlDocuments(
    readFileSync(join(root, `k8s/base/${service}/migrate-job.yaml`), 'utf8'),
    service,
  ) as Job[];
  const job = objects.find((o) => o.kind === 'Job');
  const env: Record<string, string> = { ...commonEnvironment() };
  for (const entry of job?.spec.template.spec.containers[0]?.env ?? []) {
    if (entry.value !== undefined) env[entry.name] = entry.value;
    else if (entry.valueFrom?.secretKeyRef?.key === 'DATABASE_URL') env[entry.name] = databaseUrl;
    else throw new Error(`${service}-migrate reads ${entry.name}, which this test does not provide`);
  }
  return env;
}

function runJob(service: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn(process.execPath, [join(root, `services/${service}/dist/migrate.js`)], {
      cwd: join(root, 'services', service),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => done({ code, output }));
  });
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
