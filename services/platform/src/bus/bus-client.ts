import { randomUUID } from 'node:crypto';
import {
  create,
  type DescMessage,
  fromJson,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
  toJson,
} from '@bufbuild/protobuf';
import { errors, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { context } from '@opentelemetry/api';
import type { RpcContract, SignalContract } from '@portico/proto';
import { ACTOR_HEADER, type Actor, encodeActor } from '../auth/actor.js';
import { AppError } from '../errors/app-error.js';
import { createLogger } from '../logging/logger.js';
import { injectTraceContext, inSpan, SpanKind } from '../telemetry/propagation.js';
import {
  deadlinePassed,
  remainingMs,
  SERVICE_TIMEOUT_MESSAGE,
  SERVICE_UNAVAILABLE_MESSAGE,
  TIMEOUT_HEADER,
} from './deadline.js';
import { ACCEPTS_BODY_FIELD, readReplyParts } from './reply-body.js';
import { sendSignal } from './signals.js';

export const DEFAULT_RPC_TIMEOUT_MS = 5_000;

const log = createLogger('bus');

export interface RequestOptions {
  actor?: Actor;
  timeoutMs?: number;
  /** Extra headers, e.g. the caller's IP for rate limits. */
  headers?: Record<string, string>;
}

/** JSON options shared by both ends: the proto field names (the spec's snake_case keys), every field present. */
export const WIRE_JSON = { useProtoFieldName: true, alwaysEmitImplicit: true } as const;

/**
 * Request/reply over NATS in the packet format of the NestJS NATS transport, so any Nest microservice
 * answers it. No responder answers 503 at once; a slow one 504 after the timeout. Never hangs. Each
 * request tells its timeout (`TIMEOUT_HEADER`); one made while handling a request waits no longer than
 * that request's caller still does.
 */
export class BusClient {
  /**
   * False from the loss of the connection to NATS until it is back. Meanwhile a request fails at once
   * with 503: the client would otherwise keep it in its reconnect buffer until its timeout (504 after
   * 5 s for every call while NATS restarts).
   */
  private connected = true;

  constructor(private readonly nc: NatsConnection) {
    void this.followConnection();
  }

  private async followConnection() {
    try {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') this.connected = false;
        else if (status.type === 'reconnect') this.connected = true;
      }
    } catch {
      // The connection closed: requests now fail with ClosedConnectionError.
    }
  }

  /**
   * The largest message the connected server takes (its max_payload; NATS's default is 1 MB, Portico's
   * servers are set to 8 MB). A reply sized beyond it never arrives, so large answers are cut by it.
   */
  get maxPayload(): number {
    return this.nc.info?.max_payload ?? 1024 * 1024;
  }

  /** Sends a signal: best effort, nothing waits for it (see `sendSignal`). */
  signal<M extends DescMessage>(contract: SignalContract<M>, payload: MessageInitShape<M>): void {
    sendSignal(this.nc, contract, payload);
  }

  async request<Req extends DescMessage, Res extends DescMessage>(
    contract: RpcContract<Req, Res>,
    payload: MessageInitShape<Req>,
    options: RequestOptions = {},
  ): Promise<MessageShape<Res>> {
    const { packet, field, bytes } = await this.exchange(contract, payload, options);
    const response = packet.response ?? {};
    if (field && bytes) response[field] = new TextDecoder().decode(bytes);
    return fromJson(contract.response, response as JsonValue, { ignoreUnknownFields: true });
  }

  /**
   * The same call for a contract with a `bodyField`, answering that field as UTF-8 bytes beside the
   * rest of the reply (where the field is left empty): a caller that passes the text on, as the gateway
   * does with a listing, neither decodes nor encodes it again.
   */
  async requestWithBody<Req extends DescMessage, Res extends DescMessage>(
    contract: RpcContract<Req, Res>,
    payload: MessageInitShape<Req>,
    options: RequestOptions = {},
  ): Promise<{ message: MessageShape<Res>; body: Uint8Array }> {
    const field = contract.bodyField;
    if (!field) throw new Error(`${contract.subject} has no body field`);
    const parts = await this.exchange(contract, payload, options);
    const response = parts.packet.response ?? {};
    // From a service that sent the usual envelope, the field is in the response.
    const text = response[field];
    const body = parts.bytes ?? Buffer.from(typeof text === 'string' ? text : '');
    delete response[field];
    return {
      message: fromJson(contract.response, response as JsonValue, { ignoreUnknownFields: true }),
      body,
    };
  }

  private async exchange<Req extends DescMessage, Res extends DescMessage>(
    contract: RpcContract<Req, Res>,
    payload: MessageInitShape<Req>,
    options: RequestOptions,
  ) {
    const message = create(contract.request, payload);
    const body = JSON.stringify({
      pattern: contract.subject,
      id: randomUUID(),
      data: toJson(contract.request, message, WIRE_JSON),
    });
    return inSpan(`rpc ${contract.subject}`, SpanKind.CLIENT, context.active(), async () => {
      const h = natsHeaders();
      for (const [key, value] of Object.entries(injectTraceContext({}))) h.set(key, value);
      if (options.actor) h.set(ACTOR_HEADER, encodeActor(options.actor));
      if (contract.bodyField) h.set(ACCEPTS_BODY_FIELD, '1');
      for (const [key, value] of Object.entries(options.headers ?? {})) h.set(key, value);
      const left = remainingMs();
      const wanted = options.timeoutMs ?? contract.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
      const timeout = left === undefined ? wanted : Math.min(wanted, Math.floor(left));
      h.set(TIMEOUT_HEADER, String(timeout));
      let parts: ReturnType<typeof readReplyParts>;
      try {
        if (timeout <= 0) throw deadlinePassed();
        if (!this.connected)
          throw new AppError('unavailable', 'bus_disconnected', SERVICE_UNAVAILABLE_MESSAGE);
        parts = readReplyParts(await this.nc.request(contract.subject, body, { timeout, headers: h }));
      } catch (err) {
        const failure = err instanceof AppError ? err : toTransportError(err);
        // Inside the request's span: the line carries the trace id the caller's error body shows.
        log.warn({ subject: contract.subject, code: failure.code }, 'A request to a service failed');
        throw failure;
      }
      const { err } = parts.packet;
      if (err !== undefined && err !== null) {
        if (AppError.isWire(err)) throw AppError.fromWire(err);
        throw new AppError('internal', 'remote_error', 'Something went wrong');
      }
      return parts;
    });
  }
}

function toTransportError(err: unknown): AppError {
  if (
    err instanceof errors.TimeoutError ||
    (err instanceof errors.RequestError && err.cause instanceof errors.TimeoutError)
  ) {
    return new AppError('timeout', 'service_timeout', SERVICE_TIMEOUT_MESSAGE);
  }
  if (
    err instanceof errors.NoRespondersError ||
    (err instanceof errors.RequestError && err.isNoResponders())
  ) {
    return new AppError('unavailable', 'service_unavailable', SERVICE_UNAVAILABLE_MESSAGE);
  }
  if (err instanceof errors.ClosedConnectionError || err instanceof errors.DrainingConnectionError) {
    return new AppError('unavailable', 'bus_closed', SERVICE_UNAVAILABLE_MESSAGE);
  }
  return new AppError('unavailable', 'bus_error', SERVICE_UNAVAILABLE_MESSAGE);
}
