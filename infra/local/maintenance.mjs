// Shows or clears the global maintenance alert in every open portal (spec 1 s.2.10): publishes the
// maintenance event on JetStream; each gateway replica forwards it to its sockets.
//   npm run maintenance -- show "Portico will be down for updates at 22:00 UTC"
//   npm run maintenance -- clear
// NATS_URL picks the server; by default the running local stack's (written to .data/stack.json).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { ensureEventStream } from '@portico/platform';
import { NotificationsEvents } from '@portico/proto';

const [action, ...words] = process.argv.slice(2);
if (action !== 'show' && action !== 'clear') {
  console.error('usage: npm run maintenance -- show "<text>" | clear');
  process.exit(2);
}
const text = words.join(' ').trim();
if (action === 'show' && !text) {
  console.error('The alert needs a text.');
  process.exit(2);
}
const stackFile = resolve(import.meta.dirname, '../../.data/stack.json');
// The running local stack's NATS, or NATS_URL; never a NATS that happens to listen on the standard port.
const natsUrl =
  process.env.NATS_URL ??
  (existsSync(stackFile) ? JSON.parse(readFileSync(stackFile, 'utf8')).natsUrl : undefined);
if (!natsUrl) {
  console.error('No local stack is running (npm start): start it, or set NATS_URL to the NATS to tell.');
  process.exit(2);
}
const nc = await connect({ servers: natsUrl });
await ensureEventStream(nc);
const eventId = randomUUID();
await jetstream(nc).publish(
  NotificationsEvents.maintenanceAlert.subject,
  JSON.stringify({ event_id: eventId, show: action === 'show', text, occurred_at: new Date().toISOString() }),
  { msgID: eventId },
);
await nc.drain();
console.log(action === 'show' ? `Maintenance alert shown: ${text}` : 'Maintenance alert cleared');
