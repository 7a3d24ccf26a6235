import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, serviceEnv } from '../config/env.js';
import { openDatabase } from '../db/database.js';
import { republishOutboxSince } from './events.js';

/**
 * The operator's command to send a service's events again after the EVENTS stream was lost or restored
 * from an older backup (k8s/README.md, 'Back up and restore NATS streams'): run in a pod of the service,
 * with its DATABASE_URL,
 *
 *   node ../platform/dist/bus/republish-outbox.js --since 2025-07-01T09:00:00Z
 *
 * marks the outbox rows recorded since then as not yet published; the service's relay sends them within
 * a second. Answers the exit code: 0 done, 1 on a bad argument or a failure (printed on stderr).
 */
export async function runRepublishOutbox(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`${message}\n`);
    return 1;
  };
  const at = args.indexOf('--since');
  const since = at >= 0 ? new Date(args[at + 1] ?? '') : undefined;
  if (!since || Number.isNaN(since.getTime()))
    return fail('Usage: republish-outbox --since <ISO time, e.g. 2025-07-01T09:00:00Z>');
  let url: string;
  try {
    url = loadConfig({ DATABASE_URL: serviceEnv.DATABASE_URL }, env).DATABASE_URL;
  } catch (err) {
    return fail(err instanceof ConfigError ? err.message : String(err));
  }
  const database = openDatabase(url, {}, { max: 1 });
  try {
    const count = await republishOutboxSince(database.db, since);
    out(`${count} event(s) recorded since ${since.toISOString()} will be published again`);
    return 0;
  } catch (err) {
    return fail(`Could not mark the events: ${(err as Error).message}`);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runRepublishOutbox(process.argv.slice(2));
}
