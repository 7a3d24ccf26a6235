import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Actor, FirmAccess as FirmAccessLevel } from '@portico/platform';

/** How a route authenticates. Every route declares one; a test over all routes checks it. */
export type AuthMode = 'public' | 'jwt' | 'optional';
export const AUTH_MODE = 'portico:auth-mode';
export const REQUIRED_ROLES = 'portico:roles';
export const REQUIRED_FIRM_ACCESS = 'portico:firm-access';
export const BEARER = 'bearer';

/** Anyone may call it (sign-in steps, JWKS, health, firm theme). */
export const Public = () => SetMetadata(AUTH_MODE, 'public' satisfies AuthMode);

/** A valid access token is required (401 token_expired / unauthenticated otherwise). */
export const Authenticated = () =>
  applyDecorators(
    SetMetadata(AUTH_MODE, 'jwt' satisfies AuthMode),
    ApiBearerAuth(BEARER),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired access token' }),
  );

/** A token is used when sent (and must then be valid); without one the service decides. */
export const OptionalAuth = () =>
  applyDecorators(SetMetadata(AUTH_MODE, 'optional' satisfies AuthMode), ApiBearerAuth(BEARER));

/** Only these roles may call it (403 otherwise). Implies Authenticated. */
export const Roles = (...roles: Actor['role'][]) =>
  applyDecorators(
    Authenticated(),
    SetMetadata(REQUIRED_ROLES, roles),
    ApiForbiddenResponse({ description: `Only for ${roles.join(', ')}` }),
  );

/** Only advisors with one of these firm access levels may call it (403 otherwise). Implies Authenticated. */
export const FirmAccess = (...levels: FirmAccessLevel[]) =>
  applyDecorators(
    Authenticated(),
    SetMetadata(REQUIRED_FIRM_ACCESS, levels),
    ApiForbiddenResponse({ description: `Only for advisors with ${levels.join(', ')} access` }),
  );
