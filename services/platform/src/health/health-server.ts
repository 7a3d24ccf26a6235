import { createServer, type Server } from 'node:http';
import { createLogger } from '../logging/logger.js';

const log = createLogger('health');

export type ReadinessCheck = () => Promise<void>;

/**
 * A check's failure whose message is shown on /health/ready as the check's result (e.g. 'pending'): a
 * state the process knows and has logged itself, naming no host, user or secret. It is not logged at
 * each probe, as other failures are.
 */
export class NotReady extends Error {
  override name = 'NotReady';
}

export interface HealthServer {
  server: Server;
  port: number;
  /** From now on readiness answers 503, so load balancers stop sending work before shutdown. */
  markDraining(): void;
  /** Replaces the readiness checks, e.g. once a starting service has everything they look at. */
  setChecks(checks: Record<string, ReadinessCheck>): void;
  close(): Promise<void>;
}

/**
 * /health/live answers 200 while the process runs; /health/ready runs every check (database, NATS)
 * with a time limit and answers 503 with the failing ones, or while draining.
 */
export async function startHealthServer(
  port: number,
  initialChecks: Record<string, ReadinessCheck>,
  host = '0.0.0.0',
): Promise<HealthServer> {
  let draining = false;
  let checks = initialChecks;
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/health/live') return send(200, { status: 'ok' });
    if (req.url === '/health/ready') {
      if (draining) return send(503, { status: 'draining' });
      const results = await runChecks(checks);
      const failing = Object.entries(results).filter(([, r]) => r !== 'ok');
      return send(failing.length ? 503 : 200, {
        status: failing.length ? 'unavailable' : 'ok',
        checks: results,
      });
    }
    send(404, { error: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    markDraining: () => {
      draining = true;
    },
    setChecks: (next) => {
      checks = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Each check's result: 'ok', 'timed out', 'failed', or the reason of a `NotReady`. Why a check failed
 * otherwise (a host name, an authentication error) goes to the log, not to whoever can reach the endpoint.
 */
export async function runChecks(checks: Record<string, ReadinessCheck>, timeoutMs = 2_000) {
  const timedOut = new Error('timed out');
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => setTimeout(() => reject(timedOut), timeoutMs).unref()),
        ]);
        return [name, 'ok'] as const;
      } catch (err) {
        if (err instanceof NotReady) return [name, err.message] as const;
        log.warn({ err, check: name }, 'Readiness check failed');
        return [name, err === timedOut ? 'timed out' : 'failed'] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<string, string>;
}
