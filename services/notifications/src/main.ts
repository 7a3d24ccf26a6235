import { ConfigError, createLogger, stopOnSignals } from '@portico/platform';
import { loadNotificationsConfig } from './config.js';
import { startNotificationsService } from './notifications.bootstrap.js';

const log = createLogger('notifications');
try {
  const config = loadNotificationsConfig();
  log.level = config.LOG_LEVEL;
  const service = await startNotificationsService(config, log);
  stopOnSignals(service.stop, log);
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    log.fatal({ err }, 'notifications failed to start');
  }
  process.exit(1);
}
