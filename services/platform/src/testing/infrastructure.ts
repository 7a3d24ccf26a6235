import { startNatsServer } from './nats.js';
import { startEmbeddedPostgres } from './postgres.js';

export interface TestInfrastructure {
  postgresAdminUrl: string;
  natsUrl: string;
  source: 'environment' | 'containers' | 'local';
  stop(): Promise<void>;
}

/** True when a Docker engine answers; testcontainers rejects in milliseconds when there is none. */
async function dockerAvailable(): Promise<boolean> {
  if (process.env.PORTICO_NO_CONTAINERS) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startContainers(): Promise<TestInfrastructure> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const postgres = await new GenericContainer('postgres:18.1-bookworm')
    .withEnvironment({ POSTGRES_PASSWORD: 'portico' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  const nats = await new GenericContainer('nats:2.12.1-alpine')
    .withCommand(['-js'])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  return {
    postgresAdminUrl: `postgres://postgres:portico@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    source: 'containers',
    stop: async () => {
      await Promise.all([postgres.stop(), nats.stop()]);
    },
  };
}

/**
 * The real servers tests run against, in this order of preference: URLs from the environment
 * (TEST_DATABASE_URL as a superuser URL, TEST_NATS_URL), containers when a Docker engine is reachable,
 * else embedded PostgreSQL and a local nats-server on free loopback ports.
 */
export async function startTestInfrastructure(): Promise<TestInfrastructure> {
  const envPg = process.env.TEST_DATABASE_URL;
  const envNats = process.env.TEST_NATS_URL;
  if (envPg && envNats) {
    return { postgresAdminUrl: envPg, natsUrl: envNats, source: 'environment', stop: async () => undefined };
  }
  if (await dockerAvailable()) return startContainers();
  const [postgres, nats] = await Promise.all([startEmbeddedPostgres(), startNatsServer()]);
  return {
    postgresAdminUrl: postgres.adminUrl,
    natsUrl: nats.url,
    source: 'local',
    stop: async () => {
      await Promise.all([postgres.stop(), nats.stop()]);
    },
  };
}
