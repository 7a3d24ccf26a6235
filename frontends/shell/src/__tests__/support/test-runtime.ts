import { ApiClient, SessionStore } from '@portico/kit';
import { sessionTokens } from '@portico/kit/testing';
import type { ShellRuntime } from '../../app/services.js';
import type { AreaStatus } from '../../remotes/registry.js';

/** The firm `GET /firms/current_user_firm` answers in the router tests. */
export const TEST_FIRM = {
  id: 'f-1',
  name: 'Demo CPA',
  slug: 'demo-cpa',
  logo_url: '',
  preferences: { in_app_banner_enabled: false, in_app_banner_text: '' },
};

/**
 * A shell runtime for component tests: a session (signed in when `signedIn`), an API whose GETs answer
 * `answers` by path (404 otherwise), and the areas given.
 */
export function testRuntime({
  answers,
  areas = [],
  signedIn,
}: {
  answers: Record<string, unknown>;
  areas?: AreaStatus[];
  signedIn: boolean;
}): ShellRuntime & { session: SessionStore } {
  const session = new SessionStore(window.localStorage);
  if (signedIn) session.set(sessionTokens(1));
  const client = new ApiClient({
    baseUrl: 'http://api.test',
    session,
    fetch: async (input) => {
      const body = answers[new URL(String(input)).pathname];
      return new Response(JSON.stringify(body ?? { error: 'Not found' }), {
        status: body ? 200 : 404,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return {
    config: { apiUrl: 'http://api.test', remotes: {} },
    session,
    client,
    reportError: async () => undefined,
    areas: Promise.resolve(areas),
  };
}
