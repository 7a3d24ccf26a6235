import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListOutboxResponseSchema, Notifications } from '@portico/proto';
import { z } from 'zod';
import { Public } from '../auth/auth.decorators.js';
import { RpcForwarder } from '../bus/rpc-forwarder.js';
import { Describe } from '../http/route.decorators.js';
import { optionalText, queryNumber } from '../validation/fields.js';
import { ValidQuery } from '../validation/zod.pipe.js';

const listOutboxQuery = z.object({
  to: optionalText(254),
  channel: z.enum(['email', 'sms'], { error: 'Channel must be email or sms' }).optional(),
  limit: queryNumber(
    z.coerce
      .number({ error: 'Limit must be a number' })
      .int('Limit must be a whole number')
      .min(1, 'Limit must be 1 to 200')
      .max(200, 'Limit must be 1 to 200')
      .default(50),
  ),
});

/**
 * The local outbox of sent email and SMS, so a developer (and the end-to-end tests) can read sign-in
 * codes and links. Registered only when DEV_ROUTES_ENABLED is true, never in production by default.
 */
@ApiTags('dev')
@Controller('dev')
export class OutboxController {
  constructor(@Inject(RpcForwarder) private readonly rpc: RpcForwarder) {}

  @Get('outbox')
  @Public()
  @Describe('Messages in the local outbox, newest first (development only)', ListOutboxResponseSchema)
  list(@ValidQuery(listOutboxQuery) query: z.output<typeof listOutboxQuery>) {
    return this.rpc.call(Notifications.listOutbox, query);
  }
}
