import { loadConfig, serviceEnv } from '@portico/platform';
import { z } from 'zod';

export const identityEnv = {
  ...serviceEnv,
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3101),
  /** JSON array of {kid, privateKeyPem}; the first signs. Required in production, generated in development. */
  JWT_SIGNING_KEYS: z.string().optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(30 * 24 * 3600),
  /** The portal's public address, used in sign-in links. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
};

export type IdentityConfig = ReturnType<typeof loadIdentityConfig>;

export function loadIdentityConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(identityEnv, env);
  if (config.NODE_ENV === 'production' && !config.JWT_SIGNING_KEYS) {
    throw new Error('Invalid configuration:\n  JWT_SIGNING_KEYS: required in production');
  }
  return config;
}
