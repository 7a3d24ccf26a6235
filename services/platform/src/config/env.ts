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

/**
 * Whether the NATS client can read `url` as one server, and reads it as it is written: the client drops
 * the scheme and parses the rest as an http:// URL, throwing, on a failure, an error that quotes the whole
 * URL, password included; a '#' or '?' in the password would cut the rest off (the client would read the
 * password's start as a port, or connect somewhere else).
 */
export function isNatsUrl(url: string): boolean {
  if (!/^(nats|tls):\/\/./.test(url) || !URL.canParse(url)) return false;
  const parsed = new URL(url);
  if (parsed.search || parsed.hash || !parsed.hostname) return false;
  return URL.canParse(`http://${url.trim().replace(/^(.*:\/\/)(.*)/m, '$2')}`);
}

/** Variables every process reads. */
export const commonEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  // The message never quotes the value: it may hold a password.
  NATS_URL: z
    .string()
    .refine(
      isNatsUrl,
      'must be a nats:// or tls:// URL of one server (percent-encode special characters of the user and password)',
    )
    .default('nats://127.0.0.1:4222'),
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
