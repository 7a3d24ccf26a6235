import { createLogger, stopOnSignals } from '@portico/platform';
import { startIdentityService } from './start.js';

const log = createLogger('identity');
try {
  const service = await startIdentityService();
  stopOnSignals(service.stop, log);
} catch (err) {
  log.fatal({ err }, 'identity failed to start');
  process.exit(1);
}
