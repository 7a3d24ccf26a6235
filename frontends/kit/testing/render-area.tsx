// The render harness the remotes' component tests share: the kit's providers, a router, and an API
// answered by a handler that also records every call.
import { afterEach, jest } from '@jest/globals';
import { ApiClient, ApiProvider, KitProvider, SessionStore, toast } from '@portico/kit';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';

export { aCurrentUser, accessTokenWith, jsonResponse, sessionTokens } from './fixtures.js';

/** One request the fake gateway received; `Body` narrows the JSON body for tests that read it. */
export interface Call<Body = unknown> {
  method: string;
  path: string;
  body: Body;
}

type Reply = { status?: number; body: unknown } | undefined;
/** The fake gateway's answer to a call; a promise holds the answer back until the test settles it. */
export type Handler<Body = unknown> = (call: Call<Body>) => Reply | Promise<Reply>;

const sessions: SessionStore[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
  toast.clean();
});

/**
 * An API client on a fake gateway answered by `handler` (404 when it returns nothing), recording the
 * calls. For components that take the client (or an API built on it) as a prop.
 */
export function fakeGateway<Body = unknown>(handler: Handler<Body> = () => undefined) {
  const calls: Call<Body>[] = [];
  const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const call = {
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      body: (init?.body ? JSON.parse(String(init.body)) : undefined) as Body,
    };
    calls.push(call);
    const reply = (await handler(call)) ?? {
      status: 404,
      body: { error: 'not_found', message: 'Not found' },
    };
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200 });
  }) as unknown as typeof globalThis.fetch;
  const session = new SessionStore(window.localStorage);
  sessions.push(session);
  return { client: new ApiClient({ baseUrl: 'http://api.test', session, fetch }), calls };
}

/** Renders inside the kit's providers and a router, with `client` as the API. */
export function renderWithClient(ui: ReactNode, client: ApiClient, path = '/') {
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
  return { ...result, queryClient };
}

/** Renders inside the kit's providers and a router, with the API answered by `handler`; records calls. */
export function renderArea(ui: ReactNode, handler: Handler = () => undefined, path = '/') {
  const { client, calls } = fakeGateway(handler);
  return { ...renderWithClient(ui, client, path), calls };
}
