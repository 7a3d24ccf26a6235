import type { Actor, FirmAccess } from '@portico/platform';
import { z } from 'zod';
import { unauthenticated } from './auth.errors.js';

export const TOKEN_ISSUER = 'portico-identity';
export const TOKEN_AUDIENCE = 'portico';
export const TOKEN_ALGORITHMS = ['ES256'] as const;

const FIRM_ACCESS = ['partner', 'admin', 'full', 'group'] as const satisfies readonly FirmAccess[];

/** The claims of an access token identity signs. Signature, exp, iss and aud are checked before. */
const accessClaims = z.object({
  sub: z.string().min(1),
  firm_id: z.string().min(1),
  role: z.enum(['advisor', 'client']),
  firm_access: z.enum(FIRM_ACCESS).optional(),
  firm_group_id: z.string().optional(),
  readonly_access: z.boolean().optional(),
  sid: z.string().min(1).optional(),
  // Identity signs both; a token without them would never expire or would outlive a sign-out everywhere.
  exp: z.number(),
  iat: z.number(),
  iat_ms: z.number().optional(),
});

/** When a token was issued, in epoch milliseconds: its `iat_ms`, else its `iat` (whole seconds). */
export function issuedAtMs(payload: { iat?: unknown; iat_ms?: unknown }): number | undefined {
  if (typeof payload.iat_ms === 'number') return payload.iat_ms;
  return typeof payload.iat === 'number' ? payload.iat * 1_000 : undefined;
}

export type AccessClaims = z.infer<typeof accessClaims>;

/** The verified claims become the actor that travels to services; a token without them is refused. */
export function claimsToActor(payload: unknown): Actor {
  const parsed = accessClaims.safeParse(payload);
  if (!parsed.success) throw unauthenticated();
  const claims = parsed.data;
  const actor: Actor = {
    user_id: claims.sub,
    firm_id: claims.firm_id,
    role: claims.role,
    readonly_access: claims.readonly_access ?? false,
  };
  if (claims.sid) actor.session_id = claims.sid;
  if (claims.role === 'advisor' && claims.firm_access) actor.firm_access = claims.firm_access;
  if (claims.firm_group_id) actor.firm_group_id = claims.firm_group_id;
  return actor;
}

/** What a route declares of its callers: roles, and for advisors firm access levels. */
export interface RouteRequirement {
  roles?: readonly Actor['role'][];
  firmAccess?: readonly FirmAccess[];
}

/** Whether a route's requirement is for the firm's staff alone: a client is then told so. */
export function staffOnly(requirement: RouteRequirement) {
  return (
    !!requirement.firmAccess?.length || (!!requirement.roles?.length && !requirement.roles.includes('client'))
  );
}

/** Whether the actor satisfies a route's declared roles and firm access levels. */
export function permits(actor: Actor, requirement: RouteRequirement): boolean {
  if (requirement.roles?.length && !requirement.roles.includes(actor.role)) return false;
  if (requirement.firmAccess?.length) {
    if (actor.role !== 'advisor' || !actor.firm_access) return false;
    if (!requirement.firmAccess.includes(actor.firm_access)) return false;
  }
  return true;
}
