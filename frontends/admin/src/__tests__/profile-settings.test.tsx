import { describe, expect, it } from '@jest/globals';
import {
  CURRENT_PASSWORD_MESSAGES,
  EMAIL_CHANGE_CANCELLED,
  EMAIL_CONFIRMED,
  useCurrentUser,
} from '@portico/kit';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import ProfileSettingsRoute from '../profile-settings/ProfileSettingsRoute.js';
import { SETTINGS_MESSAGES } from '../profile-settings/rules.js';
import { aUser, type Call, renderArea } from './render.js';

const section = (testId: string) => within(screen.getByTestId(testId));
const field = (testId: string, label: string) =>
  section(testId).getByLabelText(label, { selector: 'input, textarea' }) as HTMLInputElement;
const click = (testId: string, name: string) =>
  fireEvent.click(section(testId).getByRole('button', { name }));
/**
 * Whether focus is on the field, marked invalid and described by `message`: what a screen reader reads
 * when a failed save takes focus there.
 */
function expectFocusedInError(testId: string, label: string, message: string) {
  const input = field(testId, label);
  expect(document.activeElement).toBe(input);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  const described = (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent);
  expect(described).toContain(message);
}

/** The address the router is at, to see what the page leaves in it. */
function Address() {
  const { pathname, search } = useLocation();
  return <output data-testid="address">{pathname + search}</output>;
}

/** set_sign_in_method refused with a 400 naming `fields`, as the gateway and identity answer one. */
const signInMethodRefused = (fields: Record<string, string>) => (c: { path: string }) => {
  if (c.path !== '/users/set_sign_in_method') return undefined;
  const message = Object.values(fields)[0];
  return { status: 400, body: { error: message, message, code: 'invalid_input', fields } };
};

/** The phone in the current-user cache as the page renders it, to wait for a save to reach the page. */
function SavedPhone() {
  return <output data-testid="saved-phone">{useCurrentUser().data?.phone_number}</output>;
}

function renderSettings(
  user = aUser(),
  reply: (c: Call) => { status?: number; body: unknown } | undefined = () => undefined,
  path = '/admin-profile',
) {
  return renderArea(
    <>
      <ProfileSettingsRoute basePath="/admin-profile" />
      <Address />
      <SavedPhone />
    </>,
    (c) =>
      reply(c) ??
      (c.path === '/current_user'
        ? { body: user }
        : c.method === 'PATCH'
          ? { body: { user, email_confirmation_sent: false } }
          : undefined),
    path,
  );
}

/**
 * Settings of `before`, with SMS passcode chosen and 6465550177 typed as its phone, not yet saved; once
 * saved, the account is read back with that method and phone.
 */
async function switchToSmsSignIn(before: ReturnType<typeof aUser>) {
  let me = before;
  const rendered = renderSettings(me, (c) => {
    if (c.path === '/users/set_sign_in_method') {
      me = aUser({ preferred_sign_in_method: 'sms', phone_number: '6465550177' });
      return { body: { auth_token: '', preferred_sign_in_method: 'sms' } };
    }
    return c.path === '/current_user' ? { body: me } : undefined;
  });
  await screen.findByTestId('profile-settings');
  fireEvent.click(section('settings-sign-in-method').getByLabelText('SMS passcode'));
  fireEvent.change(field('settings-sign-in-method', 'Phone for sign-in codes'), {
    target: { value: '6465550177' },
  });
  return rendered;
}

describe('advisor Profile Settings', () => {
  it('saves the name with PATCH /users/{id} and requires first and last name', async () => {
    const { calls } = renderSettings();
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-name', 'Last Name'), { target: { value: ' ' } });
    click('settings-name', 'Save Name');
    expect(await screen.findByText(SETTINGS_MESSAGES.nameRequired)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.change(field('settings-name', 'Last Name'), { target: { value: 'Fuller' } });
    fireEvent.change(field('settings-name', 'Preferred Name'), { target: { value: 'Fi' } });
    click('settings-name', 'Save Name');
    expect(await screen.findByText('Profile updated successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')).toEqual({
      method: 'PATCH',
      path: '/users/u-1',
      body: { lname: 'Fuller', preferred_name: 'Fi' },
    });
  });

  it('changes the email with a confirmation and saves the phone as digits', async () => {
    const pending = aUser({ pending_email: 'fiona@new.test', phone_number: '4155550100' });
    const { calls } = renderSettings(aUser(), (c) =>
      c.method === 'PATCH' ? { body: { user: pending, email_confirmation_sent: true } } : undefined,
    );
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-contact', 'Email'), { target: { value: 'fiona@new.test' } });
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '(415) 555-0100' } });
    // A new email or phone of their own is confirmed with the password they sign in with.
    click('settings-contact', 'Save Contact');
    expect(await section('settings-contact').findByText(CURRENT_PASSWORD_MESSAGES.missing)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.change(field('settings-contact', 'Current password'), { target: { value: 'Old-Pass-1234' } });
    click('settings-contact', 'Save Contact');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your new email' });
    expect(dialog.textContent).toContain('fiona@new.test');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      email: 'fiona@new.test',
      phone_number: '4155550100',
      current_password: 'Old-Pass-1234',
    });
    // The saved user, new phone and all, reaches the page and starts Contact again from it; the dialog
    // stays open through that until the user closes it.
    await waitFor(() => expect(screen.getByTestId('saved-phone').textContent).toBe('4155550100'));
    expect(
      await section('settings-contact').findByText('Waiting for confirmation of fiona@new.test'),
    ).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Confirm your new email' }).textContent).toContain(
      'fiona@new.test',
    );
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Confirm your new email' })).getByRole('button', {
        name: 'OK',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm your new email' })).toBeNull());
  });

  it('asks a user who signs in with a password for none while the contact is unchanged', async () => {
    const { calls } = renderSettings(aUser());
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '(415) 555-0101' } });
    expect(section('settings-contact').queryByLabelText('Current password')).toBeNull();
    click('settings-contact', 'Save Contact');
    expect(await screen.findByText(SETTINGS_MESSAGES.noChanges)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('sends no name when none was changed, and says so', async () => {
    const { calls } = renderSettings();
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-name', 'Preferred Name'), { target: { value: 'Fi' } });
    fireEvent.change(field('settings-name', 'Preferred Name'), { target: { value: '' } });
    click('settings-name', 'Save Name');
    expect(await screen.findByText(SETTINGS_MESSAGES.noChanges)).toBeTruthy();
    expect(screen.queryByText(SETTINGS_MESSAGES.saved)).toBeNull();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('judges only a changed phone: one stored before the area-code rule does not block the email', async () => {
    const { calls } = renderSettings(
      aUser({ preferred_sign_in_method: 'email', phone_number: '0155550100' }),
    );
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-contact', 'Email'), { target: { value: 'fiona@new.test' } });
    click('settings-contact', 'Save Contact');
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ email: 'fiona@new.test' }),
    );
  });

  it('refuses a phone whose area code starts with 0 or 1', async () => {
    const { calls } = renderSettings(aUser({ preferred_sign_in_method: 'email' }));
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '(015) 555-0100' } });
    click('settings-contact', 'Save Contact');
    expect(await section('settings-contact').findByText(SETTINGS_MESSAGES.areaCode)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('takes focus to the first Contact field in error on a failed save', async () => {
    const { calls } = renderSettings(aUser({ preferred_sign_in_method: 'email' }));
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-contact', 'Email'), { target: { value: 'fiona@firm' } });
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '(015) 555-0100' } });
    click('settings-contact', 'Save Contact');
    expectFocusedInError('settings-contact', 'Email', SETTINGS_MESSAGES.invalidEmail);
    expect(field('settings-contact', 'Phone Number').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(field('settings-contact', 'Email'), { target: { value: 'fiona@firm.test' } });
    click('settings-contact', 'Save Contact');
    expectFocusedInError('settings-contact', 'Phone Number', SETTINGS_MESSAGES.areaCode);
    expect(field('settings-contact', 'Email').getAttribute('aria-invalid')).toBeNull();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('takes focus to Current password when a new phone is saved without it, and to the field identity refuses', async () => {
    const { calls } = renderSettings(aUser(), (c) =>
      c.method === 'PATCH'
        ? {
            status: 400,
            body: {
              error: 'bad_request',
              message: SETTINGS_MESSAGES.phoneDigits,
              fields: { phone_number: SETTINGS_MESSAGES.phoneDigits },
            },
          }
        : undefined,
    );
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '(415) 555-0100' } });
    click('settings-contact', 'Save Contact');
    expectFocusedInError('settings-contact', 'Current password', CURRENT_PASSWORD_MESSAGES.missing);
    fireEvent.change(field('settings-contact', 'Current password'), { target: { value: 'Old-Pass-1234' } });
    click('settings-contact', 'Save Contact');
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    await waitFor(() =>
      expectFocusedInError('settings-contact', 'Phone Number', SETTINGS_MESSAGES.phoneDigits),
    );
    expect(field('settings-contact', 'Current password').getAttribute('aria-invalid')).toBeNull();
  });

  it('asks no password while the contact is unchanged, nor of a user who signs in with codes', async () => {
    const { calls } = renderSettings(aUser({ preferred_sign_in_method: 'email' }));
    await screen.findByTestId('profile-settings');
    expect(section('settings-contact').queryByLabelText('Current password')).toBeNull();
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '(415) 555-0100' } });
    expect(section('settings-contact').queryByLabelText('Current password')).toBeNull();
    click('settings-contact', 'Save Contact');
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ phone_number: '4155550100' }),
    );
  });

  it('sends only the contact field changed, so a phone changed elsewhere since is not written back', async () => {
    const { calls } = renderSettings(aUser({ preferred_sign_in_method: 'email' }), (c) =>
      c.method === 'PATCH'
        ? { body: { user: aUser({ pending_email: 'fiona@new.test' }), email_confirmation_sent: true } }
        : undefined,
    );
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-contact', 'Email'), { target: { value: 'fiona@new.test' } });
    click('settings-contact', 'Save Contact');
    await screen.findByRole('dialog', { name: 'Confirm your new email' });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ email: 'fiona@new.test' });
  });

  it('withdraws an email change waiting for confirmation on its own, keeping the other edits', async () => {
    const user = aUser({ pending_email: 'typo@new.test' });
    const { calls } = renderSettings(user, (c) =>
      c.method === 'PATCH'
        ? { body: { user: { ...user, pending_email: '' }, email_confirmation_sent: false } }
        : undefined,
    );
    await screen.findByTestId('profile-settings');
    const email = field('settings-contact', 'Email');
    const description = document.getElementById(email.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe('Waiting for confirmation of typo@new.test');
    const cancel = section('settings-contact').getByRole('button', { name: 'Cancel email change' });
    expect(description?.contains(cancel)).toBe(false);
    fireEvent.change(email, { target: { value: 'fiona@half-typed' } });
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '6465550177' } });
    cancel.focus();
    fireEvent.click(cancel);
    expect(await screen.findByText(EMAIL_CHANGE_CANCELLED)).toBeTruthy();
    await waitFor(() =>
      expect(section('settings-contact').queryByText(/Waiting for confirmation/)).toBeNull(),
    );
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { cancel_email_change: true },
    ]);
    expect(field('settings-contact', 'Email').value).toBe('fiona@half-typed');
    expect(field('settings-contact', 'Phone Number').value).toBe('(646) 555-0177');
    expect(document.activeElement).toBe(field('settings-contact', 'Email'));
  });

  it('shows Current password when identity asks for it, and reads the account again', async () => {
    // The section loaded a user who signs in with codes; they have since chosen a password elsewhere.
    let me = aUser({ preferred_sign_in_method: 'email' });
    const { calls } = renderSettings(me, (c) => {
      if (c.path === '/current_user') return { body: me };
      if (c.method !== 'PATCH') return undefined;
      if (!(c.body as { current_password?: string }).current_password) {
        me = aUser();
        return {
          status: 400,
          body: {
            error: 'bad_request',
            message: CURRENT_PASSWORD_MESSAGES.missing,
            fields: { current_password: CURRENT_PASSWORD_MESSAGES.missing },
          },
        };
      }
      return { body: { user: aUser({ phone_number: '6465550177' }), email_confirmation_sent: false } };
    });
    await screen.findByTestId('profile-settings');
    const reads = () => calls.filter((c) => c.path === '/current_user').length;
    const readsBefore = reads();
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '6465550177' } });
    expect(section('settings-contact').queryByLabelText('Current password')).toBeNull();
    click('settings-contact', 'Save Contact');
    expect(await section('settings-contact').findByText(CURRENT_PASSWORD_MESSAGES.missing)).toBeTruthy();
    // The field appears with the refusal, and takes the focus.
    expectFocusedInError('settings-contact', 'Current password', CURRENT_PASSWORD_MESSAGES.missing);
    await waitFor(() => expect(reads()).toBeGreaterThan(readsBefore));
    fireEvent.change(field('settings-contact', 'Current password'), { target: { value: 'Old-Pass-1234' } });
    click('settings-contact', 'Save Contact');
    await screen.findByText('Profile updated successfully');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { phone_number: '6465550177' },
      { phone_number: '6465550177', current_password: 'Old-Pass-1234' },
    ]);
  });

  it('keeps focus in Contact after a save that changes the saved user, and the dialog gives it back', async () => {
    let me = aUser({ preferred_sign_in_method: 'email' });
    renderSettings(me, (c) => {
      if (c.method === 'PATCH') {
        me = aUser({
          preferred_sign_in_method: 'email',
          phone_number: '6465550177',
          pending_email: 'f@new.test',
        });
        return { body: { user: me, email_confirmation_sent: true } };
      }
      return c.path === '/current_user' ? { body: me } : undefined;
    });
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-contact', 'Email'), { target: { value: 'f@new.test' } });
    fireEvent.change(field('settings-contact', 'Phone Number'), { target: { value: '6465550177' } });
    const save = section('settings-contact').getByRole('button', { name: 'Save Contact' });
    save.focus();
    fireEvent.click(save);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your new email' });
    await waitFor(() => expect(screen.getByTestId('saved-phone').textContent).toBe('6465550177'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm your new email' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(save));
    expect(screen.getByTestId('settings-contact').contains(document.activeElement)).toBe(true);
  });

  it('switches the out-of-office message on, and asks for its text', async () => {
    const { calls } = renderSettings();
    await screen.findByTestId('profile-settings');
    fireEvent.click(section('settings-out-of-office').getByRole('switch', { name: 'Out of office' }));
    click('settings-out-of-office', 'Save Out of Office');
    expect(await screen.findByText(SETTINGS_MESSAGES.outOfOfficeMessageRequired)).toBeTruthy();
    fireEvent.change(field('settings-out-of-office', 'Out-of-office message'), {
      target: { value: 'Back on Monday' },
    });
    click('settings-out-of-office', 'Save Out of Office');
    await screen.findByText('Profile updated successfully');
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: `/out_of_office/${aUser().id}`,
      body: { out_of_office: true, out_of_office_message: 'Back on Monday' },
    });
  });

  it('takes focus to the out-of-office message when it is missing', async () => {
    const { calls } = renderSettings();
    await screen.findByTestId('profile-settings');
    fireEvent.click(section('settings-out-of-office').getByRole('switch', { name: 'Out of office' }));
    click('settings-out-of-office', 'Save Out of Office');
    expectFocusedInError(
      'settings-out-of-office',
      'Out-of-office message',
      SETTINGS_MESSAGES.outOfOfficeMessageRequired,
    );
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('takes focus to the first sign-in method field in error on a failed save', async () => {
    const { calls } = renderSettings();
    await screen.findByTestId('profile-settings');
    const save = () => click('settings-sign-in-method', 'Save Sign-in Method');
    fireEvent.change(field('settings-sign-in-method', 'New password'), { target: { value: 'short' } });
    save();
    expectFocusedInError('settings-sign-in-method', 'New password', SETTINGS_MESSAGES.passwordTooShort);
    expect(field('settings-sign-in-method', 'Current password').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(field('settings-sign-in-method', 'New password'), {
      target: { value: 'Better-Pass-123' },
    });
    save();
    expectFocusedInError(
      'settings-sign-in-method',
      'Confirm password',
      SETTINGS_MESSAGES.passwordsDoNotMatch,
    );
    fireEvent.change(field('settings-sign-in-method', 'Confirm password'), {
      target: { value: 'Better-Pass-123' },
    });
    save();
    expectFocusedInError('settings-sign-in-method', 'Current password', CURRENT_PASSWORD_MESSAGES.missing);
    fireEvent.click(section('settings-sign-in-method').getByLabelText('SMS passcode'));
    fireEvent.change(field('settings-sign-in-method', 'Phone for sign-in codes'), {
      target: { value: '(015) 555-0100' },
    });
    save();
    expectFocusedInError('settings-sign-in-method', 'Phone for sign-in codes', SETTINGS_MESSAGES.areaCode);
    expect(calls.some((c) => c.path === '/users/set_sign_in_method')).toBe(false);
  });

  it('sets a password sign-in only with a password that meets the rules', async () => {
    const { calls } = renderSettings(aUser(), (c) =>
      c.path === '/users/set_sign_in_method'
        ? { body: { auth_token: 'g', preferred_sign_in_method: 'password' } }
        : undefined,
    );
    await screen.findByTestId('profile-settings');
    fireEvent.change(field('settings-sign-in-method', 'New password'), { target: { value: 'short' } });
    click('settings-sign-in-method', 'Save Sign-in Method');
    expect(await screen.findByText(SETTINGS_MESSAGES.passwordTooShort)).toBeTruthy();
    fireEvent.change(field('settings-sign-in-method', 'New password'), {
      target: { value: 'Better-Pass-123' },
    });
    fireEvent.change(field('settings-sign-in-method', 'Confirm password'), {
      target: { value: 'Better-Pass-124' },
    });
    click('settings-sign-in-method', 'Save Sign-in Method');
    expect(await screen.findByText(SETTINGS_MESSAGES.passwordsDoNotMatch)).toBeTruthy();
    expect(calls.some((c) => c.path === '/users/set_sign_in_method')).toBe(false);
    fireEvent.change(field('settings-sign-in-method', 'Confirm password'), {
      target: { value: 'Better-Pass-123' },
    });
    // A user who signs in with a password confirms the change with it.
    click('settings-sign-in-method', 'Save Sign-in Method');
    expect(await screen.findByText(CURRENT_PASSWORD_MESSAGES.missing)).toBeTruthy();
    expect(calls.some((c) => c.path === '/users/set_sign_in_method')).toBe(false);
    fireEvent.change(field('settings-sign-in-method', 'Current password'), {
      target: { value: 'Old-Pass-1234' },
    });
    click('settings-sign-in-method', 'Save Sign-in Method');
    await screen.findByText(SETTINGS_MESSAGES.signInMethodSaved);
    // Spec 2 section 7's keys.
    expect(calls.find((c) => c.path === '/users/set_sign_in_method')?.body).toEqual({
      signInMethod: 'password',
      newPassword: 'Better-Pass-123',
      password_confirmation: 'Better-Pass-123',
      current_password: 'Old-Pass-1234',
    });
  });

  it("shows identity's refusal of a wrong current password under its field", async () => {
    renderSettings(aUser(), signInMethodRefused({ current_password: 'Current password is incorrect' }));
    await screen.findByTestId('profile-settings');
    fireEvent.click(section('settings-sign-in-method').getByLabelText('Email passcode'));
    fireEvent.change(field('settings-sign-in-method', 'Current password'), { target: { value: 'wrong' } });
    click('settings-sign-in-method', 'Save Sign-in Method');
    await waitFor(() =>
      expect(
        within(screen.getByTestId('settings-sign-in-method')).getAllByText('Current password is incorrect')
          .length,
      ).toBeGreaterThan(0),
    );
  });

  it("shows the gateway's refusal, named with the spec's keys, under the field it is about", async () => {
    renderSettings(
      aUser({ preferred_sign_in_method: 'email' }),
      signInMethodRefused({ phoneNumber: 'Phone number must be 10 digits' }),
    );
    await screen.findByTestId('profile-settings');
    fireEvent.click(section('settings-sign-in-method').getByLabelText('SMS passcode'));
    fireEvent.change(field('settings-sign-in-method', 'Phone for sign-in codes'), {
      target: { value: '4155550100' },
    });
    click('settings-sign-in-method', 'Save Sign-in Method');
    await waitFor(() =>
      expect(field('settings-sign-in-method', 'Phone for sign-in codes').getAttribute('aria-invalid')).toBe(
        'true',
      ),
    );
  });

  it('shows in Contact the phone a sign-in method change saved, so Save Contact does not put the old one back', async () => {
    const { calls } = await switchToSmsSignIn(
      aUser({ preferred_sign_in_method: 'email', phone_number: '4155550101' }),
    );
    click('settings-sign-in-method', 'Save Sign-in Method');
    await waitFor(() => expect(field('settings-contact', 'Phone Number').value).toBe('(646) 555-0177'));
    click('settings-contact', 'Save Contact');
    expect(await screen.findByText(SETTINGS_MESSAGES.noChanges)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('keeps focus on Save Sign-in Method once the saved method reaches the page', async () => {
    const { calls } = await switchToSmsSignIn(aUser({ preferred_sign_in_method: 'email' }));
    const save = section('settings-sign-in-method').getByRole('button', { name: 'Save Sign-in Method' });
    save.focus();
    fireEvent.click(save);
    await screen.findByText(SETTINGS_MESSAGES.signInMethodSaved);
    await waitFor(() => expect(screen.getByTestId('saved-phone').textContent).toBe('6465550177'));
    expect(calls.filter((c) => c.path === '/current_user').length).toBeGreaterThan(1);
    expect(document.activeElement).toBe(save);
    expect(
      (section('settings-sign-in-method').getByLabelText('SMS passcode') as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('sets SMS sign-in with a phone, and email sign-in with nothing else', async () => {
    // A user who signs in with emailed codes has no password to confirm the change with.
    const { calls } = renderSettings(aUser({ phone_number: '', preferred_sign_in_method: 'email' }), (c) =>
      c.path === '/users/set_sign_in_method'
        ? { body: { auth_token: 'g', preferred_sign_in_method: 'sms' } }
        : undefined,
    );
    await screen.findByTestId('profile-settings');
    fireEvent.click(section('settings-sign-in-method').getByLabelText('SMS passcode'));
    click('settings-sign-in-method', 'Save Sign-in Method');
    expect(await screen.findByText(SETTINGS_MESSAGES.phoneRequired)).toBeTruthy();
    fireEvent.change(field('settings-sign-in-method', 'Phone for sign-in codes'), {
      target: { value: '4155550100' },
    });
    click('settings-sign-in-method', 'Save Sign-in Method');
    await screen.findByText(SETTINGS_MESSAGES.signInMethodSaved);
    fireEvent.click(section('settings-sign-in-method').getByLabelText('Email passcode'));
    click('settings-sign-in-method', 'Save Sign-in Method');
    await waitFor(() => expect(calls.filter((c) => c.path === '/users/set_sign_in_method')).toHaveLength(2));
    expect(calls.filter((c) => c.path === '/users/set_sign_in_method').map((c) => c.body)).toEqual([
      { signInMethod: 'sms', phoneNumber: '4155550100' },
      { signInMethod: 'email' },
    ]);
  });

  it('disables the two-factor toggle when the firm forces it', async () => {
    renderSettings(aUser({ two_factor_forced: true }));
    const toggle = (await screen.findByRole('switch', {
      name: /Two-Factor Authentication/,
    })) as HTMLInputElement;
    expect(toggle.disabled).toBe(true);
    expect(toggle.checked).toBe(true);
    expect(screen.getByText(SETTINGS_MESSAGES.twoFactorForced)).toBeTruthy();
  });

  it('turns two-factor on when not forced', async () => {
    const { calls } = renderSettings();
    const toggle = (await screen.findByRole('switch', {
      name: /Two-Factor Authentication/,
    })) as HTMLInputElement;
    expect(toggle.disabled).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ enabled_2fa: true }));
  });

  it('turns two-factor off only with the current password, and Keep it on leaves it on', async () => {
    const { calls } = renderSettings(aUser({ enabled_2fa: true }), (c) =>
      c.method === 'PATCH' ? { body: { user: aUser({ enabled_2fa: false }) } } : undefined,
    );
    const toggle = (await screen.findByRole('switch', {
      name: /Two-Factor Authentication/,
    })) as HTMLInputElement;
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(false);
    // The confirmation's buttons leave with it: focus goes back to the switch, not to the page.
    section('settings-two-factor').getByRole('button', { name: 'Keep it on' }).focus();
    click('settings-two-factor', 'Keep it on');
    expect(toggle.checked).toBe(true);
    expect(document.activeElement).toBe(toggle);
    expect(section('settings-two-factor').queryByLabelText('Current password')).toBeNull();
    fireEvent.click(toggle);
    click('settings-two-factor', 'Turn off two-factor');
    expect(await section('settings-two-factor').findByText(CURRENT_PASSWORD_MESSAGES.missing)).toBeTruthy();
    expectFocusedInError('settings-two-factor', 'Current password', CURRENT_PASSWORD_MESSAGES.missing);
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.change(field('settings-two-factor', 'Current password'), {
      target: { value: 'Old-Pass-1234' },
    });
    section('settings-two-factor').getByRole('button', { name: 'Turn off two-factor' }).focus();
    click('settings-two-factor', 'Turn off two-factor');
    await waitFor(() =>
      expect(section('settings-two-factor').queryByLabelText('Current password')).toBeNull(),
    );
    expect(toggle.checked).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(toggle));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      enabled_2fa: false,
      current_password: 'Old-Pass-1234',
    });
  });

  it('asks for the password to turn two-factor off when identity does, though the page judged it needless', async () => {
    const missing = {
      status: 400,
      body: {
        error: 'bad_request',
        message: CURRENT_PASSWORD_MESSAGES.missing,
        fields: { current_password: CURRENT_PASSWORD_MESSAGES.missing },
      },
    };
    const { calls } = renderSettings(aUser({ enabled_2fa: true, preferred_sign_in_method: 'email' }), (c) =>
      c.method === 'PATCH' ? missing : undefined,
    );
    const toggle = (await screen.findByRole('switch', {
      name: /Two-Factor Authentication/,
    })) as HTMLInputElement;
    const reads = calls.filter((c) => c.path === '/current_user').length;
    fireEvent.click(toggle);
    expect(await section('settings-two-factor').findByText(CURRENT_PASSWORD_MESSAGES.missing)).toBeTruthy();
    expect(field('settings-two-factor', 'Current password')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ enabled_2fa: false });
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/current_user').length).toBeGreaterThan(reads),
    );
  });

  it('confirms a changed email from the emailed link once, and takes the token out of the address', async () => {
    let me = aUser({ pending_email: 'fiona@new.test' });
    const { calls } = renderSettings(
      me,
      (c) => {
        if (c.path === '/users/confirm_email') me = aUser({ email: 'fiona@new.test' });
        return c.path === '/users/confirm_email' || c.path === '/current_user' ? { body: me } : undefined;
      },
      '/admin-profile?email_token=tok-123&tab=contact',
    );
    expect(await screen.findByText(EMAIL_CONFIRMED)).toBeTruthy();
    expect(calls.filter((c) => c.path === '/users/confirm_email')).toEqual([
      { method: 'POST', path: '/users/confirm_email', body: { token: 'tok-123' } },
    ]);
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('/admin-profile?tab=contact'));
    await waitFor(() => expect(field('settings-contact', 'Email').value).toBe('fiona@new.test'));
    await act(async () => {});
  });

  it("shows the server's message when the confirmation link has expired, and still drops the token", async () => {
    const { calls } = renderSettings(
      aUser(),
      (c) =>
        c.path === '/users/confirm_email'
          ? {
              status: 410,
              body: {
                error: 'link_expired',
                message: 'This link has expired. Choose how you would like to sign in instead.',
              },
            }
          : undefined,
      '/admin-profile?email_token=old',
    );
    expect(
      await screen.findByText('This link has expired. Choose how you would like to sign in instead.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('/admin-profile'));
    expect(calls.filter((c) => c.path === '/users/confirm_email')).toHaveLength(1);
    expect(field('settings-contact', 'Email').value).toBe('fiona@firm.test');
  });
});
