/** Firm access levels of advisors (spec 1 section 6). */
export type FirmAccess = 'partner' | 'admin' | 'full' | 'group';

/**
 * Who is calling, as the gateway verified it from the access token. It travels to services in the
 * `x-portico-actor` NATS header; services decide what this actor may do with their records.
 */
export interface Actor {
  user_id: string;
  firm_id: string;
  role: 'advisor' | 'client';
  firm_access?: FirmAccess;
  firm_group_id?: string;
  readonly_access?: boolean;
  session_id?: string;
}

export const ACTOR_HEADER = 'x-portico-actor';

export function encodeActor(actor: Actor): string {
  return Buffer.from(JSON.stringify(actor), 'utf8').toString('base64url');
}

export function decodeActor(header: string | undefined): Actor | undefined {
  if (!header) return undefined;
  try {
    const value = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Actor;
    if (typeof value.user_id !== 'string' || typeof value.firm_id !== 'string') return undefined;
    if (value.role !== 'advisor' && value.role !== 'client') return undefined;
    return value;
  } catch {
    return undefined;
  }
}

export const isAdvisor = (actor: Actor) => actor.role === 'advisor';
export const isPartner = (actor: Actor) => actor.role === 'advisor' && actor.firm_access === 'partner';
