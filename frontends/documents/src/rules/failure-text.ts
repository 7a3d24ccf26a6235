import { isApiError } from '@portico/kit';

/**
 * A failed call's text: a permission answer ('Disabled by firm', read-only), a conflict, the rate
 * limit, or the gateway's word on a slow or absent service (503, 504: '... Please try again.') wins over
 * the text the screen lists for that failure.
 */
export function failureText(err: unknown, listed: string): string {
  if (isApiError(err) && [403, 409, 429, 503, 504].includes(err.status)) return err.message || listed;
  return listed;
}
