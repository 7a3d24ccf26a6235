/**
 * Errors of the portal's pages, sent to the gateway (POST /client_errors), which writes them to its log
 * with a trace id: without them an operator learns of a screen that shows 'Something went wrong' only
 * from the user's phone call.
 */

/** Where it was caught: a screen's error boundary, an area that did not load, or nothing at all. */
export type ClientErrorKind = 'render' | 'remote' | 'script' | 'promise';

export interface ClientErrorReport {
  kind: ClientErrorKind;
  error: unknown;
  /** The remote whose screen failed. */
  area?: string;
  /** React's component stack of a render error. */
  componentStack?: string | null;
}

/**
 * Sends a report; answers its reference, the trace id the gateway logged it under (what a user can quote
 * to their firm), or undefined when it was not sent or not taken.
 */
export type ReportError = (report: ClientErrorReport) => Promise<string | undefined>;

export interface ErrorReporterOptions {
  /** The gateway's POST /client_errors. */
  endpoint: string;
  /** The access token when signed in, so the log names the user; read when a report is sent. */
  token?: () => string | undefined;
  /** Reports per page load; a page failing in a loop stops there. */
  limit?: number;
  send?: typeof fetch;
  /** The page's path (never its query: sign-in links carry tokens there). */
  page?: () => string;
}

/** The gateway's limits on each field. */
const MESSAGE_MAX = 1_000;
const STACK_MAX = 8_000;
const PAGE_MAX = 1_000;
const AREA_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
const DEFAULT_LIMIT = 10;

// Control characters other than tab and line breaks: the gateway refuses text with them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const clean = (text: string, max: number) => text.replace(CONTROL, '').trim().slice(0, max);

function describe(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) {
    const message = error.message ? `${error.name}: ${error.message}` : error.name;
    return { message, ...(error.stack ? { stack: error.stack } : {}) };
  }
  if (typeof error === 'string') return { message: error };
  try {
    return { message: JSON.stringify(error) ?? String(error) };
  } catch {
    return { message: String(error) };
  }
}

/** The body of POST /client_errors for a report, within the gateway's limits. */
export function clientErrorBody(report: ClientErrorReport, page: string) {
  const { message, stack } = describe(report.error);
  return {
    kind: report.kind,
    message: clean(message, MESSAGE_MAX) || 'Unknown error',
    ...(stack ? { stack: clean(stack, STACK_MAX) } : {}),
    ...(report.componentStack ? { component_stack: clean(report.componentStack, STACK_MAX) } : {}),
    page: clean(page.replace(/[?#].*$/s, ''), PAGE_MAX) || '/',
    ...(report.area && AREA_PATTERN.test(report.area) ? { area: report.area } : {}),
  };
}

/**
 * A reporter that sends each distinct error once (by kind, message and first line of its stack; the same
 * error again answers the first one's reference), at most `limit` per page load, in a request that
 * outlives the page (`keepalive`, as a crash is often followed by the user's refresh). Reporting never
 * throws and its failures are ignored.
 */
export function createErrorReporter(options: ErrorReporterOptions): ReportError {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const page = options.page ?? (() => window.location.pathname);
  const sent = new Map<string, Promise<string | undefined>>();
  const none = Promise.resolve(undefined);
  return (report) => {
    try {
      const body = clientErrorBody(report, page());
      const key = `${body.kind}\n${body.message}\n${body.stack?.split('\n', 2)[1] ?? ''}`;
      const known = sent.get(key);
      if (known) return known;
      if (sent.size >= limit) return none;
      const token = options.token?.();
      const send = options.send ?? fetch;
      const reference = send(options.endpoint, {
        method: 'POST',
        keepalive: true,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      }).then(
        (res) => (res.ok ? (res.headers.get('x-trace-id') ?? undefined) : undefined),
        () => undefined,
      );
      sent.set(key, reference);
      return reference;
    } catch {
      // A report must not add a failure of its own to the page's.
      return none;
    }
  };
}

/**
 * Reports what no screen caught: uncaught errors and unhandled promise rejections. A script of another
 * origin that fails says only 'Script error.' (the browser hides the rest): nothing to report.
 * Returns the function that stops watching.
 */
export function watchPageErrors(report: ReportError, target: Window = window): () => void {
  const onError = (event: ErrorEvent) => {
    if (!event.error && (!event.message || event.message === 'Script error.')) return;
    void report({ kind: 'script', error: event.error ?? event.message });
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    void report({ kind: 'promise', error: event.reason });
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
