/**
 * A link to the portal's /signin with `params`, naming the user's firm (`&firm=<slug>`) so the page shows
 * that firm's branding where the deployment serves many firms.
 */
export function signInPageLink(publicUrl: string, firmSlug: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params);
  if (firmSlug) query.set('firm', firmSlug);
  return `${publicUrl.replace(/\/$/, '')}/signin?${query}`;
}
