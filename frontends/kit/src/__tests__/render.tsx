import { afterEach } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiProvider } from '../api/ApiProvider.js';
import { ApiClient } from '../api/client.js';
import { SessionStore } from '../session/session-store.js';
import { KitProvider } from '../theme/KitProvider.js';

const sessions: SessionStore[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

/** Renders inside the kit's providers, with an API client over the given fetch. */
export function renderWithKit(ui: ReactNode, options: { fetch?: typeof fetch } = {}) {
  const session = new SessionStore(window.localStorage);
  sessions.push(session);
  const client = new ApiClient({
    baseUrl: 'http://api.test',
    session,
    fetch: options.fetch ?? (async () => new Response('{}', { status: 200 })),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>
        <KitProvider env="test">{ui}</KitProvider>
      </ApiProvider>
    </QueryClientProvider>,
  );
  return { ...result, session, client, queryClient };
}
