import { startNotificationsService } from '../start.js';

export interface StartNotificationsOptions {
  natsUrl: string;
  /** A database the service may own (createServiceDatabase); migrations are applied to it. */
  databaseUrl: string;
  /** Any of the service's variables (SMTP_URL, SMS_PROVIDER, DEV_OUTBOX_ENABLED, DELIVERY_*...). */
  env?: Record<string, string>;
}

export interface StartedNotifications {
  healthPort: number;
  stop(): Promise<void>;
}

/**
 * Runs the real notifications service in this process, for other services' and the gateway's tests.
 * The process environment is not read: only these options, with a free health port, NODE_ENV=test
 * and logs silenced unless LOG_LEVEL is set (in `env` or the environment).
 */
export async function startNotifications(options: StartNotificationsOptions): Promise<StartedNotifications> {
  const service = await startNotificationsService({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    HEALTH_PORT: '0',
    ...options.env,
    NATS_URL: options.natsUrl,
    DATABASE_URL: options.databaseUrl,
  });
  return { healthPort: service.healthPort, stop: service.stop };
}
