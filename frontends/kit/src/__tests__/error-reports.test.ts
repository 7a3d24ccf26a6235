import { describe, expect, it, jest } from '@jest/globals';
import { clientErrorBody, createErrorReporter, watchPageErrors } from '../feedback/error-reports.js';

type Sent = { url: string; init: RequestInit; body: Record<string, unknown> };

function reporter(
  options: { token?: string; limit?: number; page?: string; fails?: boolean; status?: number } = {},
) {
  const sent: Sent[] = [];
  const send = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), init: init ?? {}, body: JSON.parse(String(init?.body)) });
    if (options.fails) throw new TypeError('Failed to fetch');
    const status = options.status ?? 204;
    return new Response(status === 204 ? null : '{}', {
      status,
      headers: { 'x-trace-id': `trace-${sent.length}` },
    });
  });
  const report = createErrorReporter({
    endpoint: 'https://api.test/client_errors',
    token: () => options.token,
    limit: options.limit,
    page: () => options.page ?? '/documents/abc',
    send: send as typeof fetch,
  });
  return { report, sent };
}

function crash(message = 'Cannot read properties of undefined', frame = 'at Table (main.js:1:200)') {
  const error = new TypeError(message);
  error.stack = `TypeError: ${message}\n    ${frame}\n    at render (react.js:9:1)`;
  return error;
}

describe('error reports', () => {
  it('sends a render error with its stacks, area and page, in a request that outlives the page', () => {
    const { report, sent } = reporter({ token: 'token-1' });
    report({ kind: 'render', error: crash(), area: 'documents', componentStack: '\n    at Table' });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('https://api.test/client_errors');
    expect(sent[0]?.init).toMatchObject({
      method: 'POST',
      keepalive: true,
      headers: { 'content-type': 'application/json', authorization: 'Bearer token-1' },
    });
    expect(sent[0]?.body).toEqual({
      kind: 'render',
      message: 'TypeError: Cannot read properties of undefined',
      stack: expect.stringContaining('at Table (main.js:1:200)'),
      component_stack: 'at Table',
      page: '/documents/abc',
      area: 'documents',
    });
  });

  it('answers the trace id the report was logged under, the same for the same error, none when not taken', async () => {
    const { report } = reporter({ limit: 2 });
    expect(await report({ kind: 'render', error: crash() })).toBe('trace-1');
    expect(await report({ kind: 'render', error: crash() })).toBe('trace-1');
    expect(await report({ kind: 'render', error: crash('Other') })).toBe('trace-2');
    // Past the limit nothing is sent, and nothing refers to it.
    expect(await report({ kind: 'render', error: crash('Third') })).toBeUndefined();
    expect(await reporter({ status: 429 }).report({ kind: 'render', error: crash() })).toBeUndefined();
    expect(await reporter({ fails: true }).report({ kind: 'render', error: crash() })).toBeUndefined();
  });

  it('sends no token when signed out', () => {
    const { report, sent } = reporter();
    report({ kind: 'script', error: crash() });
    expect(sent[0]?.init.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('sends each distinct error once, and at most the limit per page load', () => {
    const { report, sent } = reporter({ limit: 3 });
    report({ kind: 'render', error: crash() });
    report({ kind: 'render', error: crash() });
    report({ kind: 'render', error: crash('Cannot read properties of undefined', 'at Row (main.js:2:10)') });
    report({ kind: 'promise', error: crash() });
    report({ kind: 'script', error: crash('Another') });
    expect(sent.map((s) => [s.body.kind, s.body.message])).toEqual([
      ['render', 'TypeError: Cannot read properties of undefined'],
      ['render', 'TypeError: Cannot read properties of undefined'],
      ['promise', 'TypeError: Cannot read properties of undefined'],
    ]);
  });

  it('never throws, whether the report cannot be sent or the error cannot be described', async () => {
    const { report, sent } = reporter({ fails: true });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => report({ kind: 'promise', error: circular })).not.toThrow();
    expect(() => report({ kind: 'promise', error: undefined })).not.toThrow();
    await Promise.resolve();
    expect(sent.map((s) => s.body.message)).toEqual(['[object Object]', 'undefined']);
  });

  it('keeps within the gateway limits: no query or fragment of the page, no control characters, no bad area', () => {
    const body = clientErrorBody(
      { kind: 'remote', error: `bad\u0000 ${'x'.repeat(2_000)}`, area: '../documents' },
      '/signin?token=secret#step',
    );
    expect(body.page).toBe('/signin');
    expect(body.message).toHaveLength(1_000);
    expect(body.message.startsWith('bad x')).toBe(true);
    expect(body).not.toHaveProperty('area');
    expect(clientErrorBody({ kind: 'promise', error: '  ' }, '').message).toBe('Unknown error');
  });

  it("reports the page's uncaught errors and unhandled rejections until told to stop", () => {
    const reports: unknown[] = [];
    // The test environment fails a test on an error event nothing prevented.
    const swallow = (event: Event) => event.preventDefault();
    window.addEventListener('error', swallow);
    const stop = watchPageErrors(async (r) => {
      reports.push(r);
      return undefined;
    });
    const thrown = crash();
    window.dispatchEvent(new ErrorEvent('error', { error: thrown, message: thrown.message }));
    // A failed script of another origin says nothing more than this.
    window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }));
    const rejection = new Event('unhandledrejection') as Event & { reason?: unknown };
    rejection.reason = 'offline';
    window.dispatchEvent(rejection);
    stop();
    window.dispatchEvent(new ErrorEvent('error', { error: crash('after') }));
    window.removeEventListener('error', swallow);
    expect(reports).toEqual([
      { kind: 'script', error: thrown },
      { kind: 'promise', error: 'offline' },
    ]);
  });
});
