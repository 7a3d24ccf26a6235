import { afterEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor } from '@testing-library/react';
import { BrowserRouter } from 'react-router';
import { EMAIL_CONFIRMED, useEmailConfirmationLink } from '../session/email-confirmation.js';
import { putLinkSecret, takeLinkSecret } from '../session/link-secret.js';
import { toast } from '../toast/toast.js';
import { renderWithKit } from './render.js';

function ConfirmsEmail() {
  useEmailConfirmationLink();
  return null;
}

/** Opens `address` in the page, as an emailed link opens it, and answers /users/confirm_email. */
function openLink(
  address: string,
  answer: () => Response | Promise<Response> = () =>
    new Response(JSON.stringify({ id: 'u1' }), { status: 200 }),
) {
  window.history.replaceState(null, '', address);
  const confirmed: unknown[] = [];
  renderWithKit(
    <BrowserRouter>
      <ConfirmsEmail />
    </BrowserRouter>,
    {
      fetch: async (input, init) => {
        if (new URL(String(input)).pathname === '/users/confirm_email')
          confirmed.push(JSON.parse(String(init?.body)));
        return answer();
      },
    },
  );
  return confirmed;
}

const address = () => window.location.pathname + window.location.search + window.location.hash;

afterEach(() => {
  act(() => toast.clean());
  window.history.replaceState(null, '', '/');
});

describe('the emailed email confirmation link', () => {
  it('confirms the token of the fragment once, and takes it out of the address, keeping the rest', async () => {
    const confirmed = openLink('/admin-profile?tab=contact#email_token=tok-1');
    expect(await screen.findByText(EMAIL_CONFIRMED)).toBeTruthy();
    expect(confirmed).toEqual([{ token: 'tok-1' }]);
    // The same history entry: replaced, not pushed (Back does not bring the token back).
    expect(address()).toBe('/admin-profile?tab=contact');
    expect(window.history.length).toBe(1);
  });

  it('still confirms the token of a link sent before, in the query, and takes it out too', async () => {
    const confirmed = openLink('/profile?email_token=old-link&tab=me#top');
    expect(await screen.findByText(EMAIL_CONFIRMED)).toBeTruthy();
    expect(confirmed).toEqual([{ token: 'old-link' }]);
    expect(address()).toBe('/profile?tab=me#top');
  });

  it("drops the token before the answer, and shows the server's message when the link has expired", async () => {
    let answer: (response: Response) => void = () => undefined;
    const confirmed = openLink(
      '/profile#email_token=spent',
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    await waitFor(() => expect(confirmed).toHaveLength(1));
    expect(address()).toBe('/profile');
    answer(
      new Response(JSON.stringify({ error: 'link_expired', message: 'This link has expired.' }), {
        status: 410,
      }),
    );
    expect(await screen.findByText('This link has expired.')).toBeTruthy();
    expect(confirmed).toEqual([{ token: 'spent' }]);
  });
});

describe('takeLinkSecret', () => {
  it('reads the fragment first, then the query, and answers both without the secret', () => {
    expect(takeLinkSecret('token', { search: '?firm=demo&token=q', hash: '#token=f' })).toEqual({
      secret: 'f',
      search: '?firm=demo',
      hash: '',
    });
    expect(takeLinkSecret('token', { search: '?token=q&firm=demo', hash: '#step' })).toEqual({
      secret: 'q',
      search: '?firm=demo',
      hash: '#step',
    });
  });

  it('leaves an address without the secret as it is, and tells the names apart', () => {
    const address = { search: '?email_token=e&redirect=%2Fa%3Fb', hash: '#x=1&&y' };
    expect(takeLinkSecret('token', address)).toEqual({ secret: null, ...address });
    expect(takeLinkSecret('email_token', address)).toEqual({
      secret: 'e',
      search: '?redirect=%2Fa%3Fb',
      hash: '#x=1&&y',
    });
    expect(takeLinkSecret('token', { search: '', hash: '#token=a%2Bb+c' }).secret).toBe('a+b c');
  });
});

describe('putLinkSecret', () => {
  it('adds the secret to a fragment, as takeLinkSecret reads it back', () => {
    expect(putLinkSecret('email_token', 'e-1', '')).toBe('#email_token=e-1');
    expect(putLinkSecret('email_token', 'e-1', '#top')).toBe('#top&email_token=e-1');
    for (const secret of ['a+b c', 'x&y=z#w', '%41']) {
      const hash = putLinkSecret('email_token', secret, '#step');
      expect(takeLinkSecret('email_token', { search: '', hash })).toEqual({
        secret,
        search: '',
        hash: '#step',
      });
    }
  });

  it('moves the confirmation of a link sent before from the query to the fragment, which the page confirms', async () => {
    const old = takeLinkSecret('email_token', { search: '?email_token=old-link&tab=me', hash: '' });
    const confirmed = openLink(
      `/profile${old.search}${putLinkSecret('email_token', old.secret ?? '', old.hash)}`,
    );
    expect(await screen.findByText(EMAIL_CONFIRMED)).toBeTruthy();
    expect(confirmed).toEqual([{ token: 'old-link' }]);
    expect(address()).toBe('/profile?tab=me');
  });
});
