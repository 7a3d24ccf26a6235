// Starts PostgreSQL and NATS once for the integration run; each test file makes its own databases.
// Plain ESM loading the TypeScript harness through tsx, because jest loads global setup outside its resolver.
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { startTestInfrastructure } = await tsImport(
    '../../services/platform/src/testing/index.ts',
    import.meta.url,
  );
  const infra = await startTestInfrastructure();
  process.env.TEST_PG_ADMIN_URL = infra.postgresAdminUrl;
  process.env.TEST_NATS_SERVER_URL = infra.natsUrl;
  globalThis.__porticoInfra = infra;
}
