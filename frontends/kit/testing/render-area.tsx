// The render harness the remotes' component tests share: the kit's providers, a router, and an API
// answered by a handler that also records every call.
import { afterEach, jest } from '@jest/globals';
import { ApiClient, ApiProvider, type CurrentUser, KitProvider, SessionStore, toast } from '@portico/kit';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (call: Call) => { status?: number; body: unknown } | undefined;

const sessions: SessionStore[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
  toast.clean();
});

/** Renders inside the kit's providers and a router, with the API answered by `handler`; records calls. */
export function renderArea(ui: ReactNode, handler: Handler = () => undefined, path = '/') {
  const calls: Call[] = [];
  const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const call = {
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const reply = handler(call) ?? { status: 404, body: { error: 'not_found', message: 'Not found' } };
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200 });
  }) as unknown as typeof globalThis.fetch;
  const session = new SessionStore(window.localStorage);
  sessions.push(session);
  const client = new ApiClient({ baseUrl: 'http://api.test', session, fetch });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <MemoryRouter initialEntries={[path]}>
      <QueryClientProvider client={queryClient}>
        <ApiProvider client={client}>
          <KitProvider env="test">{ui}</KitProvider>
        </ApiProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { ...result, calls, queryClient };
}
