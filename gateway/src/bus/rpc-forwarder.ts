import { type DescMessage, fromJson, type JsonValue, type MessageShape, toJson } from '@bufbuild/protobuf';
import { type BusClient, badRequest, WIRE_JSON } from '@portico/platform';
import type { RpcContract } from '@portico/proto';
import type { Caller } from '../http/caller.js';

/** Headers the services read for rate limits and audit (RequestHeader in platform's rpc). */
export const CLIENT_IP_HEADER = 'x-portico-client-ip';
export const USER_AGENT_HEADER = 'x-portico-user-agent';

/** Drops undefined keys, which protobuf JSON does not accept. */
function compact(input: object): JsonValue {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined) out[key] = value as JsonValue;
  return out;
}

function callerHeaders(caller: Caller): Record<string, string> {
  const headers: Record<string, string> = { [CLIENT_IP_HEADER]: caller.ip };
  if (caller.userAgent) headers[USER_AGENT_HEADER] = caller.userAgent;
  return headers;
}

/**
 * Maps a validated REST body (the spec's snake_case keys, which are the proto field names) to the
 * contract's request, calls it with the caller's actor and the gateway's timeout, and answers the reply
 * as JSON with the same keys.
 */
export class RpcForwarder {
  constructor(
    private readonly bus: BusClient,
    private readonly timeoutMs: number,
  ) {}

  async call<Req extends DescMessage, Res extends DescMessage>(
    contract: RpcContract<Req, Res>,
    input: object,
    caller?: Caller,
  ): Promise<JsonValue> {
    return toJson(contract.response, await this.message(contract, input, caller), WIRE_JSON);
  }

  /** The same call answering the decoded reply, for routes that shape their own response. */
  message<Req extends DescMessage, Res extends DescMessage>(
    contract: RpcContract<Req, Res>,
    input: object,
    caller?: Caller,
  ): Promise<MessageShape<Res>> {
    return this.bus.request(contract, this.requestOf(contract, input), this.optionsFor(contract, caller));
  }

  /** The same call for a contract with a body field: that field as UTF-8 bytes beside the reply. */
  messageWithBody<Req extends DescMessage, Res extends DescMessage>(
    contract: RpcContract<Req, Res>,
    input: object,
    caller?: Caller,
  ): Promise<{ message: MessageShape<Res>; body: Uint8Array }> {
    return this.bus.requestWithBody(
      contract,
      this.requestOf(contract, input),
      this.optionsFor(contract, caller),
    );
  }

  /**
   * The validated input as the contract's message. A value the route's schema let through and the
   * message cannot hold (a number past int32) is the caller's mistake, answered 400, not a 500; so is
   * one it holds and cannot write back as JSON for the wire (Infinity in a free-form value, which JSON
   * parses from 1e400), written here once to find out.
   */
  private requestOf<Req extends DescMessage>(contract: RpcContract<Req>, input: object) {
    try {
      const message = fromJson(contract.request, compact(input), { ignoreUnknownFields: true });
      toJson(contract.request, message, WIRE_JSON);
      return message;
    } catch {
      // The decoder's text names internal message types: not for the caller.
      throw badRequest('A value is out of range');
    }
  }

  /** How long the gateway waits for one call of `contract`. */
  timeoutFor(contract: RpcContract): number {
    // Slow subjects (zips, upload validation) declare a longer timeout than the gateway's default.
    return Math.max(this.timeoutMs, contract.timeoutMs ?? 0);
  }

  private optionsFor(contract: RpcContract, caller?: Caller) {
    return {
      actor: caller?.actor,
      timeoutMs: this.timeoutFor(contract),
      headers: caller ? callerHeaders(caller) : undefined,
    };
  }
}
