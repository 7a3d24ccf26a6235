// Seeds demo documents for the demo firm once, through the running identity and documents services:
// `node dist/seed/seed-main.js` with NATS_URL set.
import { connect } from '@nats-io/transport-node';
import { BusClient, createLogger } from '@portico/platform';
import { seedDemoDocuments } from './demo-documents.js';

const log = createLogger('documents-seed');
const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
try {
  const seeded = await seedDemoDocuments(new BusClient(nc), process.env.DEMO_FIRM_SLUG ?? 'demo-cpa');
  log.info(seeded ? `Demo documents seeded for ${seeded} companies` : 'Demo documents already present');
} catch (err) {
  log.fatal({ err }, 'Seeding documents failed');
  process.exitCode = 1;
} finally {
  await nc.drain();
}
