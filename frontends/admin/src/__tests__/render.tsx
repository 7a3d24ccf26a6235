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

export function aUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u-1',
    uid: 'uid-1',
    firm_id: 'f-1',
    fname: 'Fiona',
    lname: 'Full',
    full_name: 'Fiona Full',
    preferred_name: '',
    email: 'fiona@firm.test',
    phone_number: '4155550101',
    work_email: '',
    work_phone_number: '',
    work_phone_extension: '',
    time_zone: '',
    preferred_contact_method: 'email',
    preferred_sign_in_method: 'password',
    firm_group_id: '',
    assigned_advisor_id: '',
    enabled_2fa: false,
    paying: false,
    readonly_access: false,
    is_advisor: true,
    firm_access: 'full',
    default_company_id: '',
    set_password_required: false,
    out_of_office_message: '',
    out_of_office: false,
    two_factor_forced: false,
    pending_email: '',
    created_at: '',
    deleted_at: '',
    company_ids: [],
    ...overrides,
  } as CurrentUser;
}
