import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Logger } from '@portico/platform';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/auth.decorators.js';
import { JwtStrategy } from '../auth/jwt.strategy.js';
import { GATEWAY_LOGGER } from '../bus/bus.tokens.js';
import { callerOf } from '../http/caller.js';
import { ValidBody } from '../validation/zod.pipe.js';
import { type ClientErrorBody, clientErrorBody } from './client-errors.schemas.js';

/** Caught by a screen: the user saw the error fallback. The others may come from a browser extension. */
const SEEN_BY_USER = new Set<ClientErrorBody['kind']>(['render', 'remote']);

/**
 * Errors of the portal's pages in the browser, written to the gateway's log with the report's trace id,
 * so that an operator can see what a user who saw 'Something went wrong' saw. Anyone may report (the
 * sign-in page has no session); a valid access token sent with the report names the user, an expired or
 * invalid one is ignored rather than refused, as a report is often sent by a page in trouble.
 */
@ApiTags('client errors')
@Controller()
export class ClientErrorsController {
  constructor(
    @Inject(GATEWAY_LOGGER) private readonly log: Logger,
    @Inject(JwtStrategy) private readonly jwt: JwtStrategy,
  ) {}

  @Post('client_errors')
  @HttpCode(204)
  @Public()
  @ApiOperation({ summary: 'Report an error of a portal page in the browser (written to the log)' })
  @ApiNoContentResponse({ description: 'Written to the log' })
  @ApiPayloadTooLargeResponse({ description: 'A report over 32 KB' })
  @ApiTooManyRequestsResponse({ description: 'Too many reports from this address, or from everyone' })
  async report(@ValidBody(clientErrorBody) body: ClientErrorBody, @Req() request: FastifyRequest) {
    const caller = callerOf(request);
    const actor = request.headers.authorization
      ? await this.jwt.authenticateRequest(request).catch(() => undefined)
      : undefined;
    const line = {
      client_error: body,
      user_agent: caller.userAgent,
      ...(actor ? { user_id: actor.user_id, firm_id: actor.firm_id, role: actor.role } : {}),
    };
    // Only a signed-in user's crash is an `error` (what alerts watch): anyone can send an anonymous
    // report, so a script could otherwise raise alerts at will.
    if (actor && SEEN_BY_USER.has(body.kind)) this.log.error(line, 'Error in a browser');
    else this.log.warn(line, 'Error in a browser');
  }
}
