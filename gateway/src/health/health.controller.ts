import type { NatsConnection } from '@nats-io/transport-node';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { runChecks } from '@portico/platform';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/auth.decorators.js';
import { NATS_CONNECTION } from '../bus/bus.tokens.js';
import { Lifecycle } from './lifecycle.js';

/** Liveness and readiness for Kubernetes probes; readiness needs a working NATS connection. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(Lifecycle) private readonly lifecycle: Lifecycle,
  ) {}

  @Get('live')
  @Public()
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    if (this.lifecycle.isDraining) {
      reply.status(503);
      return { status: 'draining' };
    }
    const checks = await runChecks({
      nats: async () => {
        if (this.nc.isClosed()) throw new Error('closed');
        await this.nc.flush();
      },
    });
    const ok = Object.values(checks).every((result) => result === 'ok');
    reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}
