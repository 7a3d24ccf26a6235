import { type Logger, startRepeating } from '@portico/platform';
import { EXPORTS_PREFIX, type ObjectStore } from '../storage/object-store.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Zip exports live a day. The bucket's lifecycle rule expires them where the store accepts one (S3,
 * MinIO); where it does not (s3rver, or credentials without s3:PutLifecycleConfiguration) the service
 * deletes exports older than their lifetime itself, every hour. Deleting is idempotent, so several
 * replicas sweeping at once do no harm.
 */
export async function startExportsExpiry(
  store: ObjectStore,
  log: Logger,
  options: { ttlHours: number; sweepEveryMs?: number },
): Promise<{ mode: 'lifecycle' | 'sweeper'; stop: () => Promise<void> }> {
  const days = Math.max(1, Math.ceil(options.ttlHours / 24));
  const rule = await store.expireAfter(EXPORTS_PREFIX, days);
  if (rule.applied) {
    log.info({ prefix: EXPORTS_PREFIX, days }, 'Object storage expires zip exports by a lifecycle rule');
    return { mode: 'lifecycle', stop: async () => undefined };
  }
  log.info(
    { prefix: EXPORTS_PREFIX, reason: rule.reason },
    'Object storage did not take a lifecycle rule for zip exports; the service deletes them itself',
  );
  const sweep = () =>
    store
      .deleteOlderThan(EXPORTS_PREFIX, new Date(Date.now() - options.ttlHours * HOUR_MS))
      .then((n) => n && log.info({ deleted: n }, 'Expired zip exports deleted'))
      .catch((err) => log.warn({ err }, 'Sweeping expired zip exports failed; will retry'));
  return { mode: 'sweeper', ...startRepeating(sweep, options.sweepEveryMs ?? HOUR_MS) };
}
