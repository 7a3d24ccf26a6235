import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Identity, JwksResponseSchema } from '@portico/proto';
import { Public } from '../auth/auth.decorators.js';
import { RpcForwarder } from '../bus/rpc-forwarder.js';
import { Describe } from '../http/route.decorators.js';

/** Identity's public keys as a JWK set, for Kong and anyone verifying access tokens. */
@ApiTags('keys')
@Controller('.well-known')
export class KeysController {
  constructor(@Inject(RpcForwarder) private readonly rpc: RpcForwarder) {}

  @Get('jwks.json')
  @Public()
  @Header('cache-control', 'public, max-age=300')
  @Describe('The public keys access tokens are signed with (JWK set, EC P-256)', JwksResponseSchema)
  jwks() {
    return this.rpc.call(Identity.jwks, {});
  }
}
