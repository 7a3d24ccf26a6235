import { ConfigError, createLogger, stopOnSignals } from '@portico/platform';
import { startNotificationsService } from './start.js';

try {
  const service = await startNotificationsService();
  stopOnSignals(service.stop, service.resources.log);
} catch (err) {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else createLogger('notifications').fatal({ err }, 'notifications failed to start');
  process.exit(1);
}
