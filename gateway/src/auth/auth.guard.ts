import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Actor, advisorOnly, type FirmAccess } from '@portico/platform';
import type { FastifyRequest } from 'fastify';
import { ACTOR_PROPERTY } from '../http/caller.js';
import { AUTH_MODE, type AuthMode, REQUIRED_FIRM_ACCESS, REQUIRED_ROLES } from './auth.decorators.js';
import { forbidden } from './auth.errors.js';
import { permits, staffOnly } from './claims.rules.js';
import { JwtStrategy } from './jwt.strategy.js';

/**
 * The global guard: every route is JWT-protected unless it declares otherwise, then its declared roles
 * and firm access are checked (403). A route that declares nothing still requires a token.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(JwtStrategy) private readonly strategy: JwtStrategy,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    const mode = this.reflector.getAllAndOverride<AuthMode | undefined>(AUTH_MODE, targets) ?? 'jwt';
    if (mode === 'public') return true;
    const request = ctx.switchToHttp().getRequest<FastifyRequest>();
    if (mode === 'optional' && !request.headers.authorization) return true;
    const actor = await this.strategy.authenticateRequest(request);
    (request as unknown as Record<string, Actor>)[ACTOR_PROPERTY] = actor;
    const roles = this.reflector.getAllAndOverride<Actor['role'][] | undefined>(REQUIRED_ROLES, targets);
    const firmAccess = this.reflector.getAllAndOverride<FirmAccess[] | undefined>(
      REQUIRED_FIRM_ACCESS,
      targets,
    );
    const requirement = { roles, firmAccess };
    if (permits(actor, requirement)) return true;
    throw actor.role === 'client' && staffOnly(requirement) ? advisorOnly() : forbidden();
  }
}
