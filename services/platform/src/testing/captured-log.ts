import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../logging/logger.js';

/** A logger whose lines a test reads, each parsed (the platform's logger, or pino as services use it). */
export function capturedLog(service = 'test'): { lines: Record<string, unknown>[]; logger: Logger } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger(service, 'info', stream) };
}
