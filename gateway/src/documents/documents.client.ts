import type { DescMessage } from '@bufbuild/protobuf';
import type { RpcContract } from '@portico/proto';
import type { RpcForwarder } from '../bus/rpc-forwarder.js';
import type { Caller } from '../http/caller.js';

/** The documents service's subjects: each route maps its validated body onto one contract. */
export class DocumentsClient {
  constructor(private readonly rpc: RpcForwarder) {}

  call = <Req extends DescMessage, Res extends DescMessage>(
    contract: RpcContract<Req, Res>,
    body: object,
    caller: Caller,
  ) => this.rpc.call(contract, body, caller);
}
