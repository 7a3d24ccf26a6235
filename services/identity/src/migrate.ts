// Applies the migrations and exits: the Kubernetes job that runs before a rollout.
import { runMigrationJob } from '@portico/platform';
import { MIGRATIONS_FOLDER } from './start.js';

await runMigrationJob('identity', MIGRATIONS_FOLDER);
