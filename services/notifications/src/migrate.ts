// Applies the SQL migrations and exits; run by the notifications-migrate Kubernetes Job before a
// rollout. The service also applies them at start unless MIGRATE_ON_START is false (production), so
// locally this is never needed.
import { runMigrationJob } from '@portico/platform';
import { MIGRATIONS_FOLDER } from './migrations.js';

await runMigrationJob('notifications', MIGRATIONS_FOLDER);
