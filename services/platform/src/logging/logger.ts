import type { LoggerService } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { type DestinationStream, type Logger, pino } from 'pino';

/** Adds the active trace and span ids to every line, so a log line leads to its trace. */
function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** JSON lines on stdout, or on `destination` (a test reading what was logged). */
export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: traceFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Routes NestJS's own logging through the structured logger. */
export class JsonNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, stack: trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export type { Logger };
