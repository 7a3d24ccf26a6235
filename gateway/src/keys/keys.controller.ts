import { create, toJson } from '@bufbuild/protobuf';
import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WIRE_JSON } from '@portico/platform';
import { JwksResponseSchema } from '@portico/proto';
import { Public } from '../auth/auth.decorators.js';
import { JwksCache } from '../auth/jwks.cache.js';
import { Describe } from '../http/route.decorators.js';

/**
 * Identity's public keys as a JWK set, for Kong and anyone verifying access tokens: the set the gateway
 * verifies with, from its cache (503 while identity cannot be reached and no set is known yet).
 */
@ApiTags('keys')
@Controller('.well-known')
export class KeysController {
  constructor(@Inject(JwksCache) private readonly keys: JwksCache) {}

  @Get('jwks.json')
  @Public()
  @Header('cache-control', 'public, max-age=300')
  @Describe('The public keys access tokens are signed with (JWK set, EC P-256)', JwksResponseSchema)
  async jwks() {
    const keys = await this.keys.publishedKeys();
    return toJson(JwksResponseSchema, create(JwksResponseSchema, { keys: [...keys] }), WIRE_JSON);
  }
}
