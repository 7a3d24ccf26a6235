import { firmScope } from '@portico/platform';
import type { FirmsRepository } from './firms.repository.js';

/**
 * A link to the portal's /signin with `params`, naming the user's firm (`&firm=<slug>`) so the page shows
 * that firm's branding where the deployment serves many firms.
 */
export async function signInPageLink(
  publicUrl: string,
  firms: FirmsRepository,
  firmId: string,
  params: Record<string, string>,
): Promise<string> {
  const query = new URLSearchParams(params);
  const firm = await firms.get(firmScope(firmId));
  if (firm?.slug) query.set('firm', firm.slug);
  return `${publicUrl.replace(/\/$/, '')}/signin?${query}`;
}
