import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  ApiClient,
  type ReportError,
  SessionStore,
  SHARED_MISMATCH_EVENT_NAME,
  type SharedMismatch,
} from '@portico/kit';
import { jsonResponse } from '@portico/kit/testing';
import { act, render, screen } from '@testing-library/react';
import { App } from '../app/App.js';
import type { ShellRuntime } from '../app/services.js';

/** Found on the sign-in page, where remotes load in the background before the signed-in shell. */
const earlier: SharedMismatch = {
  pkgName: 'react-router',
  required: '8.4.0',
  loaded: '8.5.1',
  from: 'admin',
};
const later: SharedMismatch = { pkgName: 'react', required: '19.2.0', loaded: '19.3.1', from: 'client' };

/** As the kit's federation runtime plugin tells of one. */
const found = (mismatch: SharedMismatch) =>
  act(() => {
    window.dispatchEvent(new CustomEvent(SHARED_MISMATCH_EVENT_NAME, { detail: { ...mismatch } }));
  });

describe('a shared singleton at another version than a remote was built against', () => {
  let session: SessionStore;
  let reportError: jest.Mock<ReportError>;
  const nodeEnv = process.env.NODE_ENV;

  async function mountShell() {
    const runtime = {
      config: { apiUrl: 'http://api.test', remotes: {} },
      session,
      client: new ApiClient({
        baseUrl: 'http://api.test',
        session,
        fetch: (async () => jsonResponse(404, { error: 'not_found' })) as typeof fetch,
      }),
      reportError,
      areas: Promise.resolve([]),
    } as ShellRuntime;
    render(<App runtime={runtime} />);
    await screen.findByRole('heading', { name: 'Sign In' });
  }

  beforeEach(() => {
    window.history.replaceState(null, '', '/signin');
    window.localStorage.clear();
    session = new SessionStore(window.localStorage);
    reportError = jest.fn<ReportError>(async () => undefined);
    window.__PORTICO_SHARED_MISMATCHES__ = [earlier];
  });
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
    delete window.__PORTICO_SHARED_MISMATCHES__;
    session.close();
  });

  it('is sent to the error reports once each, with its package and versions, in production', async () => {
    process.env.NODE_ENV = 'production';
    await mountShell();
    found(later);
    // Told of again, or of one found earlier: not sent again.
    found(later);
    found(earlier);
    expect(reportError.mock.calls).toEqual([
      [
        {
          kind: 'remote',
          area: 'admin',
          error: 'Shared singleton react-router: admin requires 8.4.0 but 8.5.1 is loaded',
        },
      ],
      [
        {
          kind: 'remote',
          area: 'client',
          error: 'Shared singleton react: client requires 19.2.0 but 19.3.1 is loaded',
        },
      ],
    ]);
    // The warning on screen is for developers only.
    expect(screen.queryByTestId('shared-mismatch')).toBeNull();
  });

  it('is also shown, the latest one, in a development build', async () => {
    await mountShell();
    expect(screen.getByTestId('shared-mismatch').textContent).toContain(
      'Shared react-router: admin requires 8.4.0, 8.5.1 is loaded. Rebuild that remote.',
    );
    found(later);
    expect(screen.getByTestId('shared-mismatch').textContent).toContain(
      'Shared react: client requires 19.2.0, 19.3.1 is loaded. Rebuild that remote.',
    );
    expect(reportError).toHaveBeenCalledTimes(2);
  });
});
