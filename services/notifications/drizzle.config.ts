import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @portico/notifications` writes a new SQL migration into migrations/ after a
// schema change; commit it with the change. The files are the ones src/schema.ts gathers, named by
// source path so drizzle-kit needs no build of the platform package.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/outbound.schema.ts', '../platform/src/bus/outbox.schema.ts'],
  out: './migrations',
});
