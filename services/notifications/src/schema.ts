// The service's whole database schema: the tables drizzle-kit generates migrations from (see
// drizzle.config.ts) and the queries are typed against. The platform's event outbox tables live in
// every service database.
import { outboxEvents, processedEvents } from '@portico/platform';
import { outboundMessages } from './outbound.schema.js';

export type { Channel, MessageStatus, NewOutboundMessage, OutboundMessage } from './outbound.schema.js';
export { SECRET_REMOVED, secretTextKept } from './outbound.schema.js';
export { outboundMessages, outboxEvents, processedEvents };

export const schema = { outboundMessages, outboxEvents, processedEvents };
export type Schema = typeof schema;
