import { createLogger } from '@portico/platform';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { type RunningGateway, runGateway } from '../run-gateway.js';

export interface StartGatewayOptions {
  natsUrl: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Extra environment (REQUEST_TIMEOUT_MS, RATE_LIMIT_IP_MAX, LOG_LEVEL, ...) over process.env. */
  env?: Record<string, string>;
}

/**
 * The gateway in this process, on loopback, for API tests and the benchmark:
 * `const gw = await startGateway({ natsUrl }); await fetch(`${gw.url}/current_user`); await gw.stop();`
 */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const env = {
    ...process.env,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    HOST: '127.0.0.1',
    ...options.env,
    NATS_URL: options.natsUrl,
    PORT: String(options.port ?? 0),
  };
  const config = loadGatewayConfig(env);
  return runGateway(config, createLogger('gateway', config.logLevel));
}

export type { RunningGateway };
