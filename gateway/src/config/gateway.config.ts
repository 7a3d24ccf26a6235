import { ConfigError, commonEnv, loadConfig } from '@portico/platform';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1')
  .optional();

/** Every variable the gateway reads, validated once at start-up. */
export const gatewayEnv = {
  ...commonEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Comma list of allowed browser origins; empty in development allows any localhost origin. */
  CORS_ORIGINS: z.string().default(''),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(50).default(5_000),
  DEV_ROUTES_ENABLED: flag,
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).default(1_048_576),
  /** Behind Kong: trust X-Forwarded-For from this many hops ('true' trusts all, 'false' none). */
  TRUST_PROXY: z.string().default('false'),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1_000).default(60_000),
  RATE_LIMIT_IP_MAX: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_ACCOUNT_MAX: z.coerce.number().int().min(1).default(20),
  /** Per address, refreshing and ending sessions (Kong allows refreshes 300 a minute per address too). */
  RATE_LIMIT_SESSION_UPKEEP_IP_MAX: z.coerce.number().int().min(1).default(300),
  /** Per address, all public drop-off routes together (/drop-link and /secure-upload pages). */
  RATE_LIMIT_PUBLIC_UPLOAD_IP_MAX: z.coerce.number().int().min(1).default(30),
  /** Per address, reports of errors in the browser (POST /client_errors). */
  RATE_LIMIT_CLIENT_ERRORS_IP_MAX: z.coerce.number().int().min(1).default(30),
  /** From all addresses together, reports of errors in the browser (anyone may send them). */
  RATE_LIMIT_CLIENT_ERRORS_TOTAL_MAX: z.coerce.number().int().min(1).default(600),
  /** Shortest time between two JWKS refreshes caused by an unknown key id. */
  JWKS_REFRESH_MIN_INTERVAL_MS: z.coerce.number().int().min(0).default(30_000),
  /** Keys are fetched again after this age even when every kid is known (rotation). */
  JWKS_MAX_AGE_MS: z.coerce.number().int().min(1_000).default(600_000),
  /** After SIGTERM, readiness answers 503 for this long before the server stops accepting. */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  REALTIME_PING_INTERVAL_MS: z.coerce.number().int().min(1_000).default(30_000),
};

export type GatewayEnv = z.infer<z.ZodObject<typeof gatewayEnv>>;

export interface GatewayConfig {
  nodeEnv: GatewayEnv['NODE_ENV'];
  logLevel: GatewayEnv['LOG_LEVEL'];
  natsUrl: string;
  port: number;
  host: string;
  corsOrigins: string[];
  requestTimeoutMs: number;
  devRoutesEnabled: boolean;
  bodyLimitBytes: number;
  trustProxy: boolean | number;
  rateLimit: {
    windowMs: number;
    ipMax: number;
    accountMax: number;
    publicUploadIpMax: number;
    clientErrorsIpMax: number;
    clientErrorsTotalMax: number;
    sessionUpkeepIpMax: number;
  };
  jwks: { refreshMinIntervalMs: number; maxAgeMs: number };
  shutdownDelayMs: number;
  realtimePingIntervalMs: number;
}

function parseTrustProxy(value: string): boolean | number {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  const hops = Number(value);
  if (Number.isInteger(hops) && hops >= 0) return hops;
  throw new ConfigError(`TRUST_PROXY must be true, false or a hop count, got "${value}"`);
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const e = loadConfig(gatewayEnv, env);
  return {
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    natsUrl: e.NATS_URL,
    port: e.PORT,
    host: e.HOST,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    devRoutesEnabled: e.DEV_ROUTES_ENABLED ?? e.NODE_ENV !== 'production',
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    rateLimit: {
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      ipMax: e.RATE_LIMIT_IP_MAX,
      accountMax: e.RATE_LIMIT_ACCOUNT_MAX,
      sessionUpkeepIpMax: e.RATE_LIMIT_SESSION_UPKEEP_IP_MAX,
      publicUploadIpMax: e.RATE_LIMIT_PUBLIC_UPLOAD_IP_MAX,
      clientErrorsIpMax: e.RATE_LIMIT_CLIENT_ERRORS_IP_MAX,
      clientErrorsTotalMax: e.RATE_LIMIT_CLIENT_ERRORS_TOTAL_MAX,
    },
    jwks: { refreshMinIntervalMs: e.JWKS_REFRESH_MIN_INTERVAL_MS, maxAgeMs: e.JWKS_MAX_AGE_MS },
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    realtimePingIntervalMs: e.REALTIME_PING_INTERVAL_MS,
  };
}

/** Nest injection token of the GatewayConfig. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
