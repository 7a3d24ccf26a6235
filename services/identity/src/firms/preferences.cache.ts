import { Injectable } from '@nestjs/common';
import { firmScope } from '@portico/platform';
import { FirmsRepository } from './firms.repository.js';
import { type FirmPreferences, mergePreferences } from './preferences.js';

/** How long a replica trusts its copy of a firm's preferences; a save clears it at once in that replica. */
export const PREFERENCES_CACHE_TTL_MS = 5_000;

/**
 * Firm preferences are read on nearly every call (two-factor forcing, firm groups) and change rarely:
 * each replica keeps them a few seconds. Another replica's save reaches this one within the TTL.
 */
@Injectable()
export class PreferencesCache {
  private readonly entries = new Map<string, { prefs: Promise<FirmPreferences>; expires: number }>();

  constructor(private readonly firms: FirmsRepository) {}

  get(firmId: string): Promise<FirmPreferences> {
    const now = Date.now();
    const hit = this.entries.get(firmId);
    if (hit && hit.expires > now) return hit.prefs;
    const prefs = this.firms.get(firmScope(firmId)).then((firm) => mergePreferences(firm?.preferences ?? {}));
    prefs.catch(() => this.entries.delete(firmId));
    this.entries.set(firmId, { prefs, expires: now + PREFERENCES_CACHE_TTL_MS });
    return prefs;
  }

  invalidate(firmId: string): void {
    this.entries.delete(firmId);
  }
}
