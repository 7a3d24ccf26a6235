import { createLogger, stopOnSignals } from '@portico/platform';
import { startDocumentsService } from './start.js';

const log = createLogger('documents');
try {
  const service = await startDocumentsService();
  stopOnSignals(service.stop, log);
} catch (err) {
  log.fatal({ err }, 'documents failed to start');
  process.exit(1);
}
