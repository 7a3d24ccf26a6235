// The servers the documents benchmarks run against, as separate processes like in production:
// embedded PostgreSQL, nats-server, s3rver, identity (seeded with the demo firm), documents and the
// gateway from their builds. Signs in as the demo partner and picks one of the firm's companies.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import {
  createServiceDatabase,
  freePort,
  startEmbeddedPostgres,
  startNatsServer,
} from '@portico/platform/testing';
import { PDFDocument } from 'pdf-lib';
import { spawnNode, stopChild, waitUntilOk } from '../lib.mjs';

const root = resolve(import.meta.dirname, '../../..');

/** s3rver in its own process, so its hashing and disk writes do not share the benchmark's event loop. */
async function startS3Child() {
  const child = fork(join(import.meta.dirname, 's3-server.mjs'), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const s3 = await new Promise((ok, fail) => {
    child.once('message', ok);
    child.once('exit', (code) => fail(new Error(`s3rver exited ${code}`)));
  });
  return { ...s3, child };
}

/** A PostgreSQL URL for `database` with the admin's credentials (no row-level security), for seeding. */
const adminUrlOf = (adminUrl, database) => {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

/** `gatewayEnv` adds to the gateway's environment (the browser benchmark's CORS origins). */
export async function startDocumentsStack({ profile = [], gatewayEnv = {} } = {}) {
  const pg = await startEmbeddedPostgres();
  const nats = await startNatsServer();
  const children = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopChild(child);
    await nats.stop();
    await pg.stop();
  };
  try {
    const s3 = await startS3Child();
    children.push(s3.child);
    const identityDb = await createServiceDatabase(pg.adminUrl, 'identity');
    const documentsDb = await createServiceDatabase(pg.adminUrl, 'documents');
    const { KeyRing } = await import('@portico/identity/keys');
    const keys = JSON.stringify([await KeyRing.generateConfig('bench')]);
    const common = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      NATS_URL: nats.url,
      OTEL_TRACES_EXPORTER: 'none',
    };
    const [identityHealth, documentsHealth, gatewayPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    await new Promise((ok, fail) => {
      const seed = spawnNode('seed', [join(root, 'services/identity/dist/seed/seed-main.js')], {
        ...common,
        DATABASE_URL: identityDb,
        JWT_SIGNING_KEYS: keys,
      });
      seed.on('exit', (code) => (code === 0 ? ok() : fail(new Error('seed failed'))));
    });
    // The node flags of each service's container (k8s/base/*/deployment.yaml).
    const service = (name, script, env, flags = []) =>
      spawnNode(name, [...profile, ...flags, '--import', '@portico/platform/telemetry', join(root, script)], {
        ...common,
        ...env,
      });
    const largePayloads = ['--initial-old-space-size=256'];
    const processes = {
      identity: service('identity', 'services/identity/dist/main.js', {
        DATABASE_URL: identityDb,
        HEALTH_PORT: String(identityHealth),
        JWT_SIGNING_KEYS: keys,
      }),
      documents: service(
        'documents',
        'services/documents/dist/main.js',
        { DATABASE_URL: documentsDb, HEALTH_PORT: String(documentsHealth), ...s3.env },
        largePayloads,
      ),
      gateway: service(
        'gateway',
        'gateway/dist/main.js',
        {
          PORT: String(gatewayPort),
          HOST: '127.0.0.1',
          RATE_LIMIT_IP_MAX: '1000000',
          RATE_LIMIT_ACCOUNT_MAX: '1000000',
          ...gatewayEnv,
        },
        largePayloads,
      ),
      s3rver: s3.child,
    };
    children.push(processes.identity, processes.documents, processes.gateway);
    await waitUntilOk(`http://127.0.0.1:${identityHealth}/health/ready`);
    await waitUntilOk(`http://127.0.0.1:${documentsHealth}/health/ready`);
    await waitUntilOk(`http://127.0.0.1:${gatewayPort}/health/ready`);

    const gateway = `http://127.0.0.1:${gatewayPort}`;
    // Compressed answers as a browser over HTTPS asks for them (fetch alone asks for gzip and deflate).
    const send = async (method, path, body, token) => {
      const res = await fetch(`${gateway}${path}`, {
        method,
        headers: {
          'accept-encoding': 'gzip, deflate, br',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      const encoding = res.headers.get('content-encoding') ?? 'identity';
      return { body: JSON.parse(text), bytes: Buffer.byteLength(text), encoding };
    };
    const step = await send('POST', '/sessions/verify_password', {
      email: 'partner@demo-cpa.test',
      password: 'Portico-Demo-2026!',
    });
    const session = (await send('POST', '/sessions/exchange_token', { auth_token: step.body.auth_token }))
      .body;
    const token = session.access_token;
    const firmId = JSON.parse(Buffer.from(token.split('.')[1], 'base64url')).firm_id;
    // A company the partner may change: active and not read-only.
    const entities = (await send('GET', '/v2/entities?rows_per_page=50', undefined, token)).body;
    const company = entities.companies
      ?.filter((c) => !c.inactive && !c.readonly_access)
      .sort((a, b) => a.name.localeCompare(b.name))[0];
    if (!company) throw new Error(`no company for the partner: ${JSON.stringify(entities)}`);
    const { id: companyId, hash_id: companyHash } = company;
    return {
      gateway,
      s3,
      token,
      firmId,
      companyId,
      companyHash,
      documentsAdminUrl: adminUrlOf(pg.adminUrl, 'documents'),
      /** CPU milliseconds used so far by each process of the stack and by this one (Linux /proc). */
      cpu: () => cpuOf(processes),
      /** Process ids of the stack's processes, by name (identity, documents, gateway, s3rver). */
      pids: Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, child.pid])),
      /** A JSON call through the gateway as the signed-in partner: the parsed body, its size as JSON and
       * the content-encoding it came with. */
      call: (path, body) => send('POST', path, body, token),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * A folder of `total` items in the stack's company: the folder through the API, its content straight into
 * the table (`db`, a client on `documentsAdminUrl`): 1 in 100 a subfolder holding three files (so the
 * per-folder counts are computed too), the rest files of mixed types and sizes. Returns the item count.
 */
export async function seedLargeFolder(stack, db, folder, total) {
  await stack.call('/integrations/create_folder', { companyId: stack.companyId, path: '', name: folder });
  const seeded = await db.query(
    `with n as (select g, g % 100 = 0 as is_folder from generate_series(1, $3::int) g)
     insert into items (firm_id, company_id, folder, name, type, storage_key, size, content_type,
                        description, tags, upload_type, created_by, created_at, updated_at)
     select $1::uuid, $2::uuid, $4::text,
            case when is_folder then 'Client folder ' || lpad(g::text, 5, '0')
                 else (array['W-2','1099-INT','Receipt','Invoice','Bank statement'])[1 + g % 5] || ' '
                      || lpad(g::text, 5, '0') || (array['.pdf','.jpg','.png','.xlsx'])[1 + g % 4] end,
            case when is_folder then 'folder' else 'file' end,
            case when is_folder then null else 'firms/' || $1::text || '/companies/' || $2::text || '/files/' || gen_random_uuid() end,
            case when is_folder then 0 else 20000 + (g * 7919) % 3000000 end,
            case when is_folder then '' else (array['application/pdf','image/jpeg','image/png',
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'])[1 + g % 4] end,
            case when g % 7 = 0 then 'Scanned by the client' else '' end,
            case when g % 11 = 0 then array['2024','tax'] else '{}'::text[] end,
            '', null, now() - g * interval '1 minute', now() - g * interval '1 minute'
     from n`,
    [stack.firmId, stack.companyId, total, `/${folder}`],
  );
  await db.query(
    `insert into items (firm_id, company_id, folder, name, type, storage_key, size, content_type)
     select firm_id, company_id, folder || '/' || name, 'inside ' || k || '.pdf', 'file', 'x', 1000, 'application/pdf'
     from items, generate_series(1, 3) k
     where company_id = $1 and folder = $2 and type = 'folder'`,
    [stack.companyId, `/${folder}`],
  );
  await db.query('analyze items');
  return seeded.rowCount;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux
function cpuOf(processes) {
  const out = {};
  for (const [name, child] of Object.entries(processes)) {
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out[name] = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    } catch {
      out[name] = Number.NaN;
    }
  }
  const own = process.cpuUsage();
  out.benchmark = (own.user + own.system) / 1000;
  return out;
}

/** CPU milliseconds per unit of work between two cpu() readings, as 'name 12.3' pairs. */
export const cpuPer = (before, after, units) =>
  Object.keys(after)
    .map((k) => `${k} ${((after[k] - before[k]) / units).toFixed(1)}`)
    .join(', ');

/** p-th percentile (0-100) of a list of numbers, nearest rank. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Runs `work(i)` for i in [0, count) with at most `concurrency` at once; answers each one's duration in ms. */
export async function pooled(count, concurrency, work) {
  const durations = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      await work(i);
      durations[i] = performance.now() - started;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return durations;
}

/** An S3 client on the stack's s3rver, as the baselines use it. */
export function s3ClientOf(stack) {
  return new S3Client({
    region: stack.s3.region,
    endpoint: stack.s3.endpoint,
    forcePathStyle: true,
    credentials: {
      accessKeyId: stack.s3.env.S3_ACCESS_KEY_ID,
      secretAccessKey: stack.s3.env.S3_SECRET_ACCESS_KEY,
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** A valid one-page PDF of about `bytes`: a page and an incompressible embedded stream. */
export async function pdfOfSize(bytes) {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  doc.context.register(doc.context.stream(randomBytes(bytes - 1_200)));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
