import type { FirmAccess, FirmPreferences } from '../api/users.js';

export type Audience = 'advisor' | 'client' | 'public' | 'any';

/** Who may see a route or a navigation item. Every listed condition must hold. */
export interface AccessRule {
  audience?: Audience;
  /** Advisor firm access levels allowed (advisors only). */
  firmAccess?: FirmAccess[];
  /** Firm preferences that must be true (feature flags that show an item). */
  requires?: (keyof FirmPreferences & string)[];
  /** Firm preferences that hide the item when true. */
  hiddenBy?: (keyof FirmPreferences & string)[];
  /** A rule the flags cannot express (e.g. Templates for full users). */
  when?: (ctx: AccessContext) => boolean;
}

export interface AccessContext {
  signedIn: boolean;
  isAdvisor: boolean;
  firmAccess?: FirmAccess | string;
  preferences: Partial<FirmPreferences>;
  /** The entity in view (entity navigation variant). */
  entity?: { entity_type?: string } | null;
}

export function isAllowed(rule: AccessRule, ctx: AccessContext): boolean {
  const audience = rule.audience ?? 'any';
  if (audience === 'advisor' && !(ctx.signedIn && ctx.isAdvisor)) return false;
  if (audience === 'client' && !(ctx.signedIn && !ctx.isAdvisor)) return false;
  if (rule.firmAccess && !(ctx.isAdvisor && rule.firmAccess.includes(ctx.firmAccess as FirmAccess)))
    return false;
  if (rule.requires?.some((key) => ctx.preferences[key] !== true)) return false;
  if (rule.hiddenBy?.some((key) => ctx.preferences[key] === true)) return false;
  if (rule.when && !rule.when(ctx)) return false;
  return true;
}
