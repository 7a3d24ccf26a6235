import { createLogger, stopOnSignals } from '@portico/platform';
import { loadGatewayConfig } from './config/gateway.config.js';
import { runGateway } from './run-gateway.js';

const log = createLogger('gateway');
try {
  const config = loadGatewayConfig();
  const gateway = await runGateway(config, log);
  stopOnSignals(gateway.stop, log);
} catch (err) {
  log.fatal({ err }, 'Gateway failed to start');
  process.exit(1);
}
