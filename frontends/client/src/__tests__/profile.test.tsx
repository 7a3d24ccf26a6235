import { describe, expect, it } from '@jest/globals';
import { CURRENT_PASSWORD_MESSAGES, EMAIL_CHANGE_CANCELLED, EMAIL_CONFIRMED } from '@portico/kit';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { ClientProfileForm } from '../profile/ClientProfileForm.js';
import ProfileRoute from '../profile/ProfileRoute.js';
import {
  DEFAULT_TIME_ZONE,
  PROFILE_MESSAGES,
  profileValuesOf,
  US_TIME_ZONES,
  validateProfile,
} from '../profile/profile-rules.js';
import { aUser, type Call, renderArea } from './render.js';

const input = (label: string) =>
  (label === 'Two-Factor Authentication'
    ? screen.getByRole('switch', { name: new RegExp(label) })
    : screen.getByLabelText(label, { selector: 'input' })) as HTMLInputElement;
const patchOf = (calls: Call[]) => calls.find((c) => c.method === 'PATCH');
/** Identity's 400 for a save it refused, with its field messages. */
const refusal = (message: string, fields: Record<string, string>) => ({
  status: 400,
  body: { error: 'bad_request', code: 'invalid_input', message, fields },
});
const currentPassword = () => screen.queryByLabelText('Current password', { selector: 'input' });
/** What a screen reader reads as the field's description: its message among it. */
const describedBy = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
/** A new email or phone of the user's own is confirmed with the password they sign in with. */
const confirmWithPassword = (password = 'Alice-Pass-123') =>
  fireEvent.change(currentPassword() as HTMLInputElement, { target: { value: password } });

describe('profile rules', () => {
  const valid = profileValuesOf(aUser());

  it('defaults the time zone to Pacific and offers exactly the US zones identity accepts', () => {
    expect(valid.time_zone).toBe(DEFAULT_TIME_ZONE);
    expect(profileValuesOf(aUser({ time_zone: 'Guam' })).time_zone).toBe('Guam');
    expect(profileValuesOf(aUser({ time_zone: 'Europe/Paris' })).time_zone).toBe(DEFAULT_TIME_ZONE);
    expect(US_TIME_ZONES).toHaveLength(11);
    expect(validateProfile(valid)).toEqual({});
  });

  it('names the broken rule of each field', () => {
    expect(validateProfile({ ...valid, email: '  ' }).email).toBe('Email is required');
    expect(validateProfile({ ...valid, email: 'alice@client.c' }).email).toBe('Invalid email address');
    expect(validateProfile({ ...valid, phone_number: '41555' }).phone_number).toBe(
      'Phone number must be 10 digits',
    );
    // No US area code starts with 0 or 1.
    expect(validateProfile({ ...valid, work_phone_number: '0155550100' }).work_phone_number).toBe(
      PROFILE_MESSAGES.areaCode,
    );
    expect(validateProfile({ ...valid, phone_number: '1155550100' }).phone_number).toBe(
      PROFILE_MESSAGES.areaCode,
    );
    // A phone left as loaded is not judged again: identity took it, perhaps before this rule.
    const stored = { ...valid, phone_number: '(015) 555-0100' };
    expect(validateProfile({ ...stored, time_zone: 'Guam' }, stored)).toEqual({});
    expect(validateProfile({ ...valid, work_phone_extension: '12a' }).work_phone_extension).toBe(
      'Extension must be up to 6 digits',
    );
    expect(validateProfile({ ...valid, time_zone: 'Mars' }).time_zone).toBe('Choose a US time zone');
    expect(
      validateProfile({ ...valid, preferred_contact_method: 'sms', phone_number: '' })
        .preferred_contact_method,
    ).toBe('You must have a phone number to receive SMS notifications.');
  });
});

describe('client profile editor', () => {
  const ok = (user = aUser()) => ({ body: { user, email_confirmation_sent: false } });

  it('shows the phones with the mask and saves digits, then toasts the spec message', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser({ work_phone_number: '' })} />, (c) =>
      c.method === 'PATCH' ? ok(aUser({ phone_number: '4155550199' })) : undefined,
    );
    expect(input('Phone Number').value).toBe('(415) 555-0101');
    expect(input('Work Phone Number').placeholder).toBe('(___) ___-____');
    expect(input('Time Zone').value).toBe('Pacific Time (US & Canada)');
    expect(input('Contact Method').value).toBe('Email');
    fireEvent.change(input('Phone Number'), { target: { value: '415.555.0199' } });
    expect(input('Phone Number').value).toBe('(415) 555-0199');
    fireEvent.change(input('Work Phone Number'), { target: { value: '5105550123' } });
    expect(input('Work Phone Number').value).toBe('(510) 555-0123');
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText(CURRENT_PASSWORD_MESSAGES.missing)).toBeTruthy();
    expect(patchOf(calls)).toBeUndefined();
    confirmWithPassword();
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText(PROFILE_MESSAGES.saved)).toBeTruthy();
    expect(currentPassword()).toBeNull();
    expect(patchOf(calls)).toEqual({
      method: 'PATCH',
      path: '/users/u-1',
      body: {
        phone_number: '4155550199',
        work_phone_number: '5105550123',
        current_password: 'Alice-Pass-123',
      },
    });
  });

  it('sends only the fields changed: a new time zone without the phone or email it was loaded with', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser()} />, () =>
      ok(aUser({ time_zone: 'Guam' })),
    );
    fireEvent.click(input('Time Zone'));
    fireEvent.click(await screen.findByRole('option', { name: 'Guam' }));
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await screen.findByText(PROFILE_MESSAGES.saved);
    expect(patchOf(calls)?.body).toEqual({ time_zone: 'Guam' });
  });

  it('shows Current password when identity asks for it, and reads the account again', async () => {
    // The form loaded a user who signs in with codes; they have since chosen a password elsewhere.
    let me = aUser({ preferred_sign_in_method: 'sms' });
    const { calls } = renderArea(<ProfileRoute basePath="/profile" />, (c) => {
      if (c.path === '/current_user') return { body: me };
      if (c.method !== 'PATCH') return undefined;
      if (!(c.body as { current_password?: string }).current_password) {
        me = aUser();
        return refusal(CURRENT_PASSWORD_MESSAGES.missing, {
          current_password: CURRENT_PASSWORD_MESSAGES.missing,
        });
      }
      return ok(aUser({ phone_number: '4155550199' }));
    });
    const reads = () => calls.filter((c) => c.path === '/current_user').length;
    await screen.findByRole('button', { name: 'Update Profile' });
    const readsBefore = reads();
    fireEvent.change(input('Phone Number'), { target: { value: '4155550199' } });
    expect(currentPassword()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(screen.getAllByText(CURRENT_PASSWORD_MESSAGES.missing)).toHaveLength(2));
    // The field appears with the refusal, and takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(currentPassword()));
    expect(currentPassword()?.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(reads()).toBeGreaterThan(readsBefore));
    confirmWithPassword();
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await screen.findByText(PROFILE_MESSAGES.saved);
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { phone_number: '4155550199' },
      { phone_number: '4155550199', current_password: 'Alice-Pass-123' },
    ]);
  });

  it('asks no password while the email and phone are unchanged, nor of a user who signs in with codes', async () => {
    const { calls } = renderArea(
      <ClientProfileForm user={aUser({ preferred_sign_in_method: 'sms' })} />,
      () => ok(),
    );
    fireEvent.change(input('Work Phone Extension'), { target: { value: '12' } });
    expect(currentPassword()).toBeNull();
    fireEvent.change(input('Phone Number'), { target: { value: '4155550199' } });
    expect(currentPassword()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await screen.findByText(PROFILE_MESSAGES.saved);
    expect(patchOf(calls)?.body).not.toHaveProperty('current_password');
  });

  it("turns two-factor off with the current password, and shows identity's refusal of a wrong one", async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser({ enabled_2fa: true })} />, (c) =>
      c.method === 'PATCH'
        ? refusal(CURRENT_PASSWORD_MESSAGES.wrong, { current_password: CURRENT_PASSWORD_MESSAGES.wrong })
        : undefined,
    );
    expect(currentPassword()).toBeNull();
    fireEvent.click(input('Two-Factor Authentication'));
    confirmWithPassword('not-it');
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(screen.getAllByText(CURRENT_PASSWORD_MESSAGES.wrong)).toHaveLength(2));
    expect(patchOf(calls)?.body).toMatchObject({ enabled_2fa: false, current_password: 'not-it' });
  });

  it('saves only with an email, and shows validation messages under the fields', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser()} />, () => ok());
    const button = screen.getByRole('button', { name: 'Update Profile' }) as HTMLButtonElement;
    fireEvent.change(input('Primary Contact Email'), { target: { value: '   ' } });
    expect(button.disabled).toBe(true);
    fireEvent.change(input('Primary Contact Email'), { target: { value: 'alice@client' } });
    fireEvent.change(input('Phone Number'), { target: { value: '41555' } });
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(screen.getByText('Phone number must be 10 digits')).toBeTruthy();
    expect(patchOf(calls)).toBeUndefined();
  });

  it('takes focus to the first field refused on a failed save, marked invalid with its message', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser()} />, () => ok());
    fireEvent.change(input('Phone Number'), { target: { value: '41555' } });
    fireEvent.change(input('Work Phone Extension'), { target: { value: '12a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(document.activeElement).toBe(input('Phone Number')));
    expect(input('Phone Number').getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input('Phone Number'))).toContain('Phone number must be 10 digits');
    expect(input('Work Phone Extension').getAttribute('aria-invalid')).toBe('true');
    expect(input('Primary Contact Email').getAttribute('aria-invalid')).toBeNull();
    expect(patchOf(calls)).toBeUndefined();
  });

  it('takes focus to Contact Method when Email & Text has no phone, and to Current password when it is missing', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser({ phone_number: '' })} />, () => ok());
    fireEvent.click(input('Contact Method'));
    fireEvent.click(await screen.findByRole('option', { name: 'Email & Text' }));
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(document.activeElement).toBe(input('Contact Method')));
    expect(input('Contact Method').getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input('Contact Method'))).toContain(PROFILE_MESSAGES.smsNeedsPhone);
    fireEvent.change(input('Phone Number'), { target: { value: '4155550199' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    const password = await screen.findByLabelText('Current password', { selector: 'input' });
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(password)).toContain(CURRENT_PASSWORD_MESSAGES.missing);
    expect(patchOf(calls)).toBeUndefined();
  });

  it("takes focus to the first field identity refused, in the form's order", async () => {
    renderArea(<ClientProfileForm user={aUser({ preferred_sign_in_method: 'sms' })} />, (c) =>
      c.method === 'PATCH'
        ? refusal('Choose a US time zone', {
            time_zone: 'Choose a US time zone',
            phone_number: 'Phone number must be 10 digits',
          })
        : undefined,
    );
    fireEvent.change(input('Phone Number'), { target: { value: '4155550199' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(document.activeElement).toBe(input('Phone Number')));
    expect(input('Phone Number').getAttribute('aria-invalid')).toBe('true');
    expect(input('Time Zone').getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input('Time Zone'))).toContain('Choose a US time zone');
  });

  it('asks for a phone before Email & Text', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser({ phone_number: '' })} />, () => ok());
    fireEvent.click(input('Contact Method'));
    fireEvent.click(await screen.findByRole('option', { name: 'Email & Text' }));
    expect(input('Contact Method').value).toBe('Email & Text');
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText(PROFILE_MESSAGES.smsNeedsPhone)).toBeTruthy();
    expect(patchOf(calls)).toBeUndefined();
  });

  it('shows the server message as a toast and its field messages under the fields', async () => {
    renderArea(<ClientProfileForm user={aUser()} />, (c) =>
      c.method === 'PATCH'
        ? refusal('This email already exists', {
            email: 'This email already exists',
            time_zone: 'Choose a US time zone',
          })
        : undefined,
    );
    fireEvent.change(input('Primary Contact Email'), { target: { value: 'bob@client.test' } });
    confirmWithPassword();
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(screen.getAllByText('This email already exists')).toHaveLength(2));
    expect(screen.getByText('Choose a US time zone')).toBeTruthy();
  });

  it('withdraws an email change waiting for confirmation on its own, keeping the other edits', async () => {
    const { calls } = renderArea(
      <ClientProfileForm user={aUser({ pending_email: 'typo@client.test' })} />,
      (c) => (c.method === 'PATCH' ? { body: { user: aUser(), email_confirmation_sent: false } } : undefined),
    );
    // The field is described by the address waiting only; the link is beside it, not read as the field's.
    const email = input('Primary Contact Email');
    const description = document.getElementById(email.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe('Waiting for confirmation of typo@client.test');
    const cancel = screen.getByRole('button', { name: 'Cancel email change' });
    expect(description?.contains(cancel)).toBe(false);
    fireEvent.change(input('Work Phone Extension'), { target: { value: '12' } });
    fireEvent.change(input('Phone Number'), { target: { value: '5105550123' } });
    cancel.focus();
    fireEvent.click(cancel);
    expect(await screen.findByText(EMAIL_CHANGE_CANCELLED)).toBeTruthy();
    expect(screen.queryByText(/Waiting for confirmation/)).toBeNull();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { cancel_email_change: true },
    ]);
    expect(input('Work Phone Extension').value).toBe('12');
    expect(input('Phone Number').value).toBe('(510) 555-0123');
    expect(document.activeElement).toBe(input('Primary Contact Email'));
  });

  it('sends nothing when nothing was changed, and says so', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser()} />, () => ok());
    fireEvent.change(input('Work Phone Extension'), { target: { value: '12' } });
    fireEvent.change(input('Work Phone Extension'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText(PROFILE_MESSAGES.noChanges)).toBeTruthy();
    expect(screen.queryByText(PROFILE_MESSAGES.saved)).toBeNull();
    expect(patchOf(calls)).toBeUndefined();
  });

  it('offers no withdrawal in an advisor preview, nor to a read-only account', () => {
    const { unmount } = renderArea(
      <ClientProfileForm user={aUser({ pending_email: 'typo@client.test' })} preview />,
      () => ok(),
    );
    expect(screen.getByText('Waiting for confirmation of typo@client.test')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel email change' })).toBeNull();
    unmount();
    renderArea(<ClientProfileForm user={aUser({ pending_email: 'typo@client.test' })} readOnly />, () =>
      ok(),
    );
    expect(screen.getByText('Waiting for confirmation of typo@client.test')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel email change' })).toBeNull();
  });

  it('explains the email confirmation after an email change', async () => {
    renderArea(<ClientProfileForm user={aUser()} />, (c) =>
      c.method === 'PATCH'
        ? { body: { user: aUser({ pending_email: 'new@client.test' }), email_confirmation_sent: true } }
        : undefined,
    );
    fireEvent.change(input('Primary Contact Email'), { target: { value: 'new@client.test' } });
    confirmWithPassword();
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your new email' });
    expect(dialog.textContent).toContain('We sent a confirmation link to new@client.test');
    expect(dialog.textContent).toContain('login method will be updated');
    // Until confirmed, the field keeps the current address and says what is pending.
    expect(input('Primary Contact Email').value).toBe('alice@client.test');
    expect(screen.getByText('Waiting for confirmation of new@client.test')).toBeTruthy();
  });

  it('disables every input and the button for a read-only account', () => {
    renderArea(<ClientProfileForm user={aUser({ readonly_access: true })} readOnly />);
    for (const label of [
      'Primary Contact Email',
      'Contact Method',
      'Phone Number',
      'Work Phone Number',
      'Work Phone Extension',
      'Time Zone',
      'Two-Factor Authentication',
    ])
      expect(input(label).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Update Profile' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('disables the two-factor toggle when the firm forces it, and never sends it off', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser({ two_factor_forced: true })} />, () => ok());
    const toggle = input('Two-Factor Authentication');
    expect(toggle.disabled).toBe(true);
    expect(toggle.checked).toBe(true);
    expect(screen.getByText(PROFILE_MESSAGES.twoFactorForced)).toBeTruthy();
    expect(input('Primary Contact Email').disabled).toBe(false);
    fireEvent.change(input('Work Phone Extension'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await screen.findByText(PROFILE_MESSAGES.saved);
    expect(patchOf(calls)?.body).toEqual({ work_phone_extension: '12' });
  });

  it('lets the user turn two-factor on when the firm does not force it', async () => {
    const { calls } = renderArea(<ClientProfileForm user={aUser()} />, () => ok());
    const toggle = input('Two-Factor Authentication');
    expect(toggle.disabled).toBe(false);
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await screen.findByText(PROFILE_MESSAGES.saved);
    expect(patchOf(calls)?.body).toMatchObject({ enabled_2fa: true });
  });
});

/** The address the router is at, to see what the page leaves in it. */
function Address() {
  const { pathname, search } = useLocation();
  return <output data-testid="address">{pathname + search}</output>;
}

describe('/profile', () => {
  it('confirms a changed email from the emailed link, and takes the token out of the address', async () => {
    // The old address until confirm_email is called: the new one can show only once the link is confirmed.
    let me = aUser({ pending_email: 'new@client.test' });
    const { calls } = renderArea(
      <>
        <ProfileRoute basePath="/profile" />
        <Address />
      </>,
      (c) => {
        if (c.path === '/users/confirm_email') me = aUser({ email: 'new@client.test' });
        return c.path === '/users/confirm_email' || c.path === '/current_user' ? { body: me } : undefined;
      },
      '/profile?email_token=tok-123&tab=me',
    );
    expect(await screen.findByText(EMAIL_CONFIRMED)).toBeTruthy();
    const confirm = calls.filter((c) => c.path === '/users/confirm_email');
    expect(confirm).toEqual([{ method: 'POST', path: '/users/confirm_email', body: { token: 'tok-123' } }]);
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('/profile?tab=me'));
    await waitFor(() => expect(input('Primary Contact Email').value).toBe('new@client.test'));
    await act(async () => {});
  });
});
