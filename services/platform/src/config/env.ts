import { z } from 'zod';

/** Thrown at start-up when the environment is incomplete: the process exits with this message. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses `env` with the given zod shape and fails fast with one line per bad variable.
 * Services call it once at start-up, before anything connects.
 */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Variables every process reads. */
export const commonEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
};

export const serviceEnv = {
  ...commonEnv,
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535),
  RPC_CONCURRENCY: z.coerce.number().int().min(1).default(64),
  /**
   * Whether the service applies its migrations before it takes work. `false` where a migration Job
   * applies them (the production manifests): the service then waits, not ready, until its database has
   * every migration it needs. Unset or empty (compose and Kubernetes pass empty strings) means `true`.
   */
  MIGRATE_ON_START: z
    .preprocess((value) => (value === '' ? undefined : value), z.enum(['true', 'false']).default('true'))
    .transform((value) => value === 'true'),
};
