import type { DescMessage } from '@bufbuild/protobuf';

/**
 * One NATS request/reply subject with its request and response messages.
 * Subjects follow `<service>.<resource>.<verb>.v<N>`; a breaking change is a new version beside the old.
 */
export interface RpcContract<Req extends DescMessage = DescMessage, Res extends DescMessage = DescMessage> {
  readonly subject: string;
  readonly request: Req;
  readonly response: Res;
  /** Request timeout the caller applies, in milliseconds. */
  readonly timeoutMs?: number;
  /**
   * A string field of the response (its JSON name) sent as the reply's body rather than inside the JSON
   * envelope, to callers that accept it: a text of megabytes is then neither escaped nor parsed again.
   */
  readonly bodyField?: string;
}

/** One JetStream domain event: `events.<service>.<resource>.<event>.v<N>`. */
export interface EventContract<Msg extends DescMessage = DescMessage> {
  readonly subject: string;
  readonly message: Msg;
}

/**
 * One core NATS signal: `signals.<service>.<resource>.<event>.v<N>`. Fire and forget, for what is only
 * worth knowing at once (how far long work has come): not stored, not acknowledged, lost when nobody listens.
 */
export interface SignalContract<Msg extends DescMessage = DescMessage> {
  readonly subject: string;
  readonly message: Msg;
}

const RPC_SUBJECT = /^[a-z_]+\.[a-z_]+\.[a-z_]+\.v\d+$/;
const EVENT_SUBJECT = /^events\.[a-z_]+\.[a-z_]+\.[a-z_]+\.v\d+$/;
const SIGNAL_SUBJECT = /^signals\.[a-z_]+\.[a-z_]+\.[a-z_]+\.v\d+$/;

export function defineRpc<Req extends DescMessage, Res extends DescMessage>(
  contract: RpcContract<Req, Res>,
): RpcContract<Req, Res> {
  if (!RPC_SUBJECT.test(contract.subject)) throw new Error(`Bad RPC subject name: ${contract.subject}`);
  return contract;
}

export function defineEvent<Msg extends DescMessage>(contract: EventContract<Msg>): EventContract<Msg> {
  if (!EVENT_SUBJECT.test(contract.subject)) throw new Error(`Bad event subject name: ${contract.subject}`);
  return contract;
}

export function defineSignal<Msg extends DescMessage>(contract: SignalContract<Msg>): SignalContract<Msg> {
  if (!SIGNAL_SUBJECT.test(contract.subject)) throw new Error(`Bad signal subject name: ${contract.subject}`);
  return contract;
}
