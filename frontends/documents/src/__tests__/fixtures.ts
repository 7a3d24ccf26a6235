// Fixtures of the documents tests: items, a company, a stand-in XMLHttpRequest. The render harness and
// the fake gateway are the kit's (`@portico/kit/testing`).
import { afterEach, beforeEach } from '@jest/globals';
import type { Entity } from '@portico/kit';
import type { Handler, Call as KitCall } from '@portico/kit/testing';
import { fakeGateway } from '@portico/kit/testing';
import type { DocItem } from '../api/documents-api.js';

/** The documents calls are JSON objects. */
export type Body = Record<string, unknown>;
export type Call = KitCall<Body>;

/** The kit's fake gateway with the documents calls' bodies typed as JSON objects. */
export const fakeApi = (handler: Handler<Body> = () => undefined) => fakeGateway<Body>(handler);

/** The gateway's answer when a service is slower than its timeout (504), with its text. */
export const SLOW_SERVICE_TEXT = 'The service did not answer in time. Please try again.';
export const slowServiceAnswer = () => ({
  status: 504,
  body: { error: SLOW_SERVICE_TEXT, message: SLOW_SERVICE_TEXT },
});

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

/** The gateway's answer to upload_links: one presigned PUT per file, `up-{name}` its upload id. */
export function uploadLinksAnswer(call: Call, headers: Record<string, string> = {}) {
  const files = call.body.files as { name: string }[];
  return {
    body: {
      links: files.map((f, i) => ({
        upload_id: `up-${f.name}`,
        file_name: f.name,
        url: `http://s3.test/bucket/${i}`,
        method: 'PUT',
        headers,
        expires_at: '',
      })),
    },
  };
}

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
  aborted = false;
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
}
export const makeFakeXhr = () => new FakeXhr() as unknown as XMLHttpRequest;

/**
 * For a test file whose uploads run in the documents remote's upload queue: each test's PUTs go through
 * FakeXhr (the queue makes its own requests), and the queue is emptied after each test.
 */
export function uploadsThroughFakeXhr(queue: { endSession(): void }) {
  const realXhr = globalThis.XMLHttpRequest;
  beforeEach(() => {
    FakeXhr.all = [];
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => {
    queue.endSession();
    globalThis.XMLHttpRequest = realXhr;
  });
}
