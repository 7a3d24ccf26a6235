import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Actor } from '@portico/platform';
import type { FastifyRequest } from 'fastify';

/** Who is calling, as the services need it: the verified actor (if any), address and browser. */
export interface Caller {
  actor?: Actor;
  ip: string;
  userAgent: string;
}

/** Where passport and the auth guard leave the verified actor on the request. */
export const ACTOR_PROPERTY = 'user';

export function callerOf(request: FastifyRequest): Caller {
  const actor = (request as unknown as Record<string, Actor | undefined>)[ACTOR_PROPERTY];
  return {
    ...(actor ? { actor } : {}),
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 512),
  };
}

/** The Caller of this request; `actor` is set on every route that is not public. */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): Caller =>
    callerOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);
