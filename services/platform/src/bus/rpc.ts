import { create, type DescMessage, fromJson, type JsonValue, toJson } from '@bufbuild/protobuf';
import {
  type ArgumentsHost,
  applyDecorators,
  type CallHandler,
  Catch,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  type RpcExceptionFilter,
  UseFilters,
  UseInterceptors,
} from '@nestjs/common';
import { MessagePattern, type NatsContext } from '@nestjs/microservices';
import { context as otelContext } from '@opentelemetry/api';
import type { RpcContract } from '@portico/proto';
import { Observable, throwError } from 'rxjs';
import { ACTOR_HEADER, type Actor, decodeActor } from '../auth/actor.js';
import { AppError, GENERIC_ERROR_MESSAGE } from '../errors/app-error.js';
import {
  isConnectionPoolBusy,
  isDatabaseUnavailable,
  isTransactionConflict,
  isUnstorableText,
} from '../errors/postgres-errors.js';
import { createLogger } from '../logging/logger.js';
import { currentTraceId, extractTraceContext, inSpan, SpanKind } from '../telemetry/propagation.js';
import { CONTROL_CHARACTERS_MESSAGE } from '../text/text.rules.js';
import { WIRE_JSON } from './bus-client.js';
import {
  assertBeforeDeadline,
  DEADLINE_PASSED,
  deadlineOf,
  SERVICE_UNAVAILABLE_MESSAGE,
  TIMEOUT_HEADER,
  withDeadline,
} from './deadline.js';
import { ACCEPTS_BODY_FIELD, replyWithBodyField } from './reply-body.js';
import { Semaphore } from './semaphore.js';

const log = createLogger('rpc');

/** The logger of request handling (a test reads its lines through it). */
export { log as rpcLog };

/** Bounds concurrent handlers per process so a burst queues instead of exhausting the pool. */
const handlerSlots = new Semaphore(Number(process.env.RPC_CONCURRENCY ?? 64));
/**
 * Requests that may wait for a handler slot. Past them this replica is overloaded: a request answered 503
 * at once can be tried again (and reach another replica), where one queued behind hundreds would wait
 * most of its timeout for a 504, and the queue would grow with the arrival rate.
 */
const queueLimit = () => Number(process.env.RPC_QUEUE_LIMIT ?? 256);

/** Requests this process is handling or has queued: a stopping server waits for them to be 0. */
export const rpcRequestsInProgress = () => handlerSlots.busy;

function headerOf(ctx: ExecutionContext | ArgumentsHost, key: string): string | undefined {
  const nats = ctx.switchToRpc().getContext<NatsContext>();
  return nats?.getHeaders?.()?.get(key) || undefined;
}

/**
 * Decodes the request with its protobuf schema before the handler runs (a bad payload is a 400),
 * runs the handler in a span continuing the caller's trace, and encodes the reply with the response schema.
 */
function codecInterceptor(contract: RpcContract): NestInterceptor {
  @Injectable()
  class RpcCodec implements NestInterceptor {
    intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
      const args = ctx.getArgs();
      const parent = extractTraceContext((key) => headerOf(ctx, key));
      // From when it arrived: time spent waiting for a slot counts against it.
      const deadline = deadlineOf(headerOf(ctx, TIMEOUT_HEADER));
      const handle = async () => {
        try {
          // A request that waited for its turn past its caller's timeout: nobody waits for it now.
          assertBeforeDeadline();
          args[0] = decodeRequest(contract.request, args[0]);
          const result = await new Promise<unknown>((resolve, reject) => {
            otelContext.with(otelContext.active(), () => {
              next.handle().subscribe({ next: resolve, error: reject });
            });
          });
          return replyWithBodyField(
            toJson(contract.response, create(contract.response, result as never), WIRE_JSON),
            contract.bodyField,
            // Read only for the contracts that have one: every other reply skips the lookup.
            contract.bodyField !== undefined && headerOf(ctx, ACCEPTS_BODY_FIELD) === '1',
          );
        } catch (err) {
          if (err instanceof AppError && err.code === DEADLINE_PASSED)
            log.warn(
              { subject: contract.subject, code: err.code },
              'Gave up a request its caller no longer waits for',
            );
          throw hideUnexpected(err, contract.subject);
        }
      };
      return new Observable((subscriber) => {
        if (handlerSlots.queued >= queueLimit()) {
          // In a span of its own that continues the caller's trace: the line and the answer carry its id.
          void inSpan(`refuse ${contract.subject}`, SpanKind.SERVER, parent, async () => {
            log.warn(
              { subject: contract.subject, queued: handlerSlots.queued },
              'Overloaded: refused a request',
            );
            return new AppError('unavailable', 'overloaded', SERVICE_UNAVAILABLE_MESSAGE, {
              traceId: currentTraceId(),
            });
          }).then((refusal) => subscriber.error(refusal));
          return;
        }
        void handlerSlots
          .run(() =>
            withDeadline(deadline, () =>
              inSpan(`handle ${contract.subject}`, SpanKind.SERVER, parent, handle),
            ),
          )
          .then(
            (value) => {
              subscriber.next(value);
              subscriber.complete();
            },
            (err) => subscriber.error(err),
          );
      });
    }
  }
  return new RpcCodec();
}

/**
 * A request as its contract reads it. Fields the contract does not know are left out, as protobuf reads
 * them: a caller a release ahead (a gateway rolled out before the service) may send a field added
 * since, and the service answers as it did before. A known field of the wrong type is still refused.
 */
function decodeRequest(schema: DescMessage, data: unknown) {
  try {
    return fromJson(schema, (data ?? {}) as JsonValue, { ignoreUnknownFields: true });
  } catch (err) {
    // The parser's text names the contract's message types and fields: for the log, not the caller.
    log.warn({ err, schema: schema.typeName }, 'Refused a request its contract cannot read');
    throw new AppError('bad_request', 'invalid_payload', 'Invalid request');
  }
}

/**
 * Logs an unexpected error inside its span (so the line has the trace id) and replaces it with a generic
 * 500. Text the database cannot store is the caller's error: each service checks its own fields, and this
 * keeps a field it missed from answering 500.
 */
function hideUnexpected(err: unknown, subject: string): AppError {
  if (err instanceof AppError) return err;
  if (isUnstorableText(err)) {
    log.warn({ subject, code: 'unstorable_text' }, 'Refused text the database cannot store');
    return new AppError('bad_request', 'invalid_text', CONTROL_CHARACTERS_MESSAGE);
  }
  if (isConnectionPoolBusy(err)) {
    // Not an outage: every pooled connection is taken by this replica's other requests.
    const traceId = currentTraceId();
    log.warn({ subject, code: 'overloaded' }, 'Overloaded: no database connection came free in time');
    return new AppError('unavailable', 'overloaded', SERVICE_UNAVAILABLE_MESSAGE, { traceId });
  }
  if (isTransactionConflict(err)) {
    // Two changes met at once and the database ended this one: a 503 the caller may send again.
    const traceId = currentTraceId();
    log.warn(
      { err, subject, code: 'transaction_conflict' },
      'Transaction ended by the database to let another go on',
    );
    return new AppError('unavailable', 'transaction_conflict', SERVICE_UNAVAILABLE_MESSAGE, { traceId });
  }
  if (isDatabaseUnavailable(err)) {
    const traceId = currentTraceId();
    log.error({ err, subject }, 'The database is not available');
    return new AppError('unavailable', 'database_unavailable', SERVICE_UNAVAILABLE_MESSAGE, { traceId });
  }
  const traceId = currentTraceId();
  log.error({ err, subject }, 'Unhandled error in RPC handler');
  return new AppError('internal', 'internal', GENERIC_ERROR_MESSAGE, { traceId });
}

/** Turns every failure into a WireError. */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    const err = hideUnexpected(exception, 'unknown');
    return throwError(() => err.toWire(err.extra.traceId));
  }
}

/** Marks a method as the handler of one contract's subject. */
export function Rpc(contract: RpcContract) {
  return applyDecorators(
    MessagePattern(contract.subject),
    UseInterceptors(codecInterceptor(contract)),
    UseFilters(new RpcErrorFilter()),
  );
}

/** The verified actor from the gateway; a call without one is refused with 401. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const actor = decodeActor(headerOf(ctx, ACTOR_HEADER));
  if (!actor) throw new AppError('unauthorized', 'unauthenticated', 'Authentication required');
  return actor;
});

/** The actor when present (sign-in subjects are called before there is one). */
export const OptionalActor = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): Actor | undefined => decodeActor(headerOf(ctx, ACTOR_HEADER)),
);

/** A request header the gateway forwards (client IP, user agent). */
export const RequestHeader = createParamDecorator((key: string, ctx: ExecutionContext): string | undefined =>
  headerOf(ctx, key),
);
