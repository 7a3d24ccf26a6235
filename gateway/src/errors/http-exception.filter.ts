import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { currentTraceId, type Logger } from '@portico/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response.js';

/** The one exception filter: every failure leaves as `{ error, message, code, fields?, trace_id? }`. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(private readonly log: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const traceId = currentTraceId();
    const response = toErrorResponse(exception, traceId);
    if (response.unexpected) {
      // The details the caller does not see (an internal AppError's own message among them), under the
      // trace id the caller got (the service's when this request has none).
      const { trace_id } = response.body;
      this.log.error(
        {
          err: exception,
          method: request.method,
          url: request.routeOptions?.url ?? request.url,
          ...(trace_id ? { trace_id } : {}),
        },
        'Request failed',
      );
    }
    if (reply.sent) return;
    reply.status(response.status).headers(response.headers).send(response.body);
  }
}
