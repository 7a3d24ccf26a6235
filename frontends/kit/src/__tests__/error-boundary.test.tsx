import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { ERROR_FALLBACK_TEXT, ErrorBoundary } from '../feedback/ErrorFallback.js';
import { renderWithKit } from './render.js';

function Crash(): never {
  throw new Error('a broken screen');
}

/** A page whose boundary is reset by its path, as the shell's areas are by the location. */
let navigate: (to: string) => void = () => {};
function Navigable() {
  const [path, setPath] = useState('/broken');
  navigate = setPath;
  return (
    <ErrorBoundary resetKey={path} onError={async () => 'ref-1'}>
      {path === '/broken' ? <Crash /> : <p>Another page</p>}
    </ErrorBoundary>
  );
}

describe('the error boundary', () => {
  // React and the boundary log what they catch; the tests read the screen instead.
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it("shows the fallback, then the report's reference once the gateway has it", async () => {
    let answer: (reference: string) => void = () => {};
    const onError = jest.fn(
      (_error: unknown, _info: unknown) => new Promise<string | undefined>((resolve) => (answer = resolve)),
    );
    renderWithKit(
      <ErrorBoundary onError={onError}>
        <Crash />
      </ErrorBoundary>,
    );
    expect(screen.getByText(ERROR_FALLBACK_TEXT)).toBeTruthy();
    expect(screen.queryByTestId('error-reference')).toBeNull();
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'a broken screen' }),
      expect.anything(),
    );
    await act(async () => answer('4bf92f3577b34da6a3ce929d0e0e4736'));
    expect(screen.getByTestId('error-reference').textContent).toBe(
      'Reference: 4bf92f3577b34da6a3ce929d0e0e4736',
    );
  });

  it('shows no reference when the report was not taken, and gives a fallback function the reference', async () => {
    renderWithKit(
      <ErrorBoundary onError={async () => undefined}>
        <Crash />
      </ErrorBoundary>,
    );
    await act(async () => {});
    expect(screen.getByText(ERROR_FALLBACK_TEXT)).toBeTruthy();
    expect(screen.queryByTestId('error-reference')).toBeNull();

    renderWithKit(
      <ErrorBoundary onError={async () => 'ref-2'} fallback={(reference) => <p>Own fallback {reference}</p>}>
        <Crash />
      </ErrorBoundary>,
    );
    expect(await screen.findByText('Own fallback ref-2')).toBeTruthy();
  });

  it('recovers when its reset key changes, forgetting the old reference', async () => {
    renderWithKit(<Navigable />);
    expect(await screen.findByText('Reference: ref-1')).toBeTruthy();
    act(() => navigate('/fine'));
    expect(screen.getByText('Another page')).toBeTruthy();
    expect(screen.queryByTestId('error-reference')).toBeNull();
  });
});
