import { afterEach, jest } from '@jest/globals';
import { ApiClient, ApiProvider, type Entity, KitProvider, SessionStore, toast } from '@portico/kit';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import type { DocItem } from '../api/documents-api.js';

export interface Call {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

type Handler = (call: Call) => { status?: number; body: unknown } | undefined;

const sessions: SessionStore[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
  toast.clean();
});

/** A client on a fake gateway answered by `handler`, recording the calls. */
export function fakeApi(handler: Handler = () => undefined) {
  const calls: Call[] = [];
  const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const call = {
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      body: init?.body ? JSON.parse(String(init.body)) : {},
    };
    calls.push(call);
    const reply = handler(call) ?? { status: 404, body: { error: 'not_found', message: 'Not found' } };
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200 });
  }) as unknown as typeof globalThis.fetch;
  const session = new SessionStore(window.localStorage);
  sessions.push(session);
  return { client: new ApiClient({ baseUrl: 'http://api.test', session, fetch }), calls };
}

export function renderWith(ui: ReactNode, client: ApiClient, path = '/') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <QueryClientProvider client={queryClient}>
        <ApiProvider client={client}>
          <KitProvider env="test">{ui}</KitProvider>
        </ApiProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

let n = 0;
export function anItem(overrides: Partial<DocItem> = {}): DocItem {
  n += 1;
  const name = overrides.name ?? `file-${n}.pdf`;
  const path = overrides.path ?? '/';
  return {
    id: `d-${n}`,
    name,
    type: 'file',
    link: path === '/' ? `/${name}` : `${path}/${name}`,
    description: '',
    tags: [],
    created_at: '2020-01-01T00:00:00Z',
    updated_at: '2020-01-01T00:00:00Z',
    deleted_at: '',
    questionnaire_id: '',
    extracted_document_id: '',
    parent_document_id: '',
    items_count: 0,
    company_id: 'c-1',
    size: '2048',
    content_type: 'application/pdf',
    is_protected: false,
    staff_only: false,
    is_system: false,
    path,
    preview_status: 'none',
    upload_type: '',
    ...overrides,
  };
}

export const aCompany = (overrides: Partial<Entity> = {}): Entity =>
  ({
    id: 'c-1',
    hash_id: 'h1',
    firm_id: 'f-1',
    name: 'Anders Design LLC',
    entity_type: 'Partnership',
    inactive: false,
    readonly_access: false,
    owners: [],
    entity_tags: [],
    ...overrides,
  }) as Entity;

/** XMLHttpRequest stand-in: records the PUT and lets the test drive upload progress and the answer. */
export class FakeXhr {
  static all: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: unknown) {
    this.body = body;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number) {
    this.status = status;
    if (status === 0) this.onerror?.();
    else this.onload?.();
  }
}
export const makeFakeXhr = () => new FakeXhr() as unknown as XMLHttpRequest;
