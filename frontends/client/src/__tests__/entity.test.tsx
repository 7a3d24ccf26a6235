import { describe, expect, it } from '@jest/globals';
import { SelectedEntityContext } from '@portico/kit';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { addressLabels, COUNTRY_CODES, countryOptions, isKnownCountry } from '../entity/countries.js';
import { ENTITY_MESSAGES, EntityProfileForm } from '../entity/EntityProfileForm.js';
import PreviewUserRoute from '../preview/PreviewUserRoute.js';
import ProfileRoute from '../profile/ProfileRoute.js';
import { anEntity, aUser, type Call, renderArea } from './render.js';

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;

describe('country list', () => {
  it('is ISO alpha-2 codes named by Intl, US and Canada first', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(isKnownCountry('CA')).toBe(true);
    expect(isKnownCountry('XX')).toBe(false);
    const options = countryOptions();
    expect(options.slice(0, 2)).toEqual([
      { value: 'US', label: 'United States' },
      { value: 'CA', label: 'Canada' },
    ]);
    expect(options.find((o) => o.value === 'DE')?.label).toBe('Germany');
  });

  it('reads Province/Territory and Postal Code for Canada only', () => {
    expect(addressLabels('CA')).toEqual({ state: 'Province/Territory', zip: 'Postal Code' });
    expect(addressLabels('US')).toEqual({ state: 'State', zip: 'Zip Code' });
  });
});

describe('entity profile editor', () => {
  it('switches the address labels when the country becomes Canada', async () => {
    renderArea(<EntityProfileForm entity={anEntity()} />);
    expect(input('State').value).toBe('CA');
    expect(input('Zip Code')).toBeTruthy();
    fireEvent.click(input('Country'));
    fireEvent.change(input('Country'), { target: { value: 'Cana' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Canada' }));
    expect(input('Province/Territory').value).toBe('CA');
    expect(input('Postal Code')).toBeTruthy();
    expect(screen.queryByLabelText('State')).toBeNull();
  });

  it('saves with PUT /companies/{id} and the spec toast', async () => {
    const { calls } = renderArea(<EntityProfileForm entity={anEntity()} />, (c) =>
      c.method === 'PUT' ? { body: anEntity({ street: '1 Market St' }) } : undefined,
    );
    fireEvent.change(input('Street Address'), { target: { value: ' 1 Market St ' } });
    fireEvent.change(input('Entity email'), { target: { value: 'Books@Anders.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Information' }));
    expect(await screen.findByText(ENTITY_MESSAGES.saved)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/companies/c-1',
      // Only the fields changed: an address changed by someone else since is not written back.
      body: { business_email: 'Books@Anders.test', street: '1 Market St' },
    });
  });

  it('writes the country shown to an entity that had none, with the first save', async () => {
    const { calls } = renderArea(<EntityProfileForm entity={anEntity({ country: '' })} />, (c) =>
      c.method === 'PUT' ? { body: anEntity({ street: '1 Market St' }) } : undefined,
    );
    fireEvent.change(input('Street Address'), { target: { value: '1 Market St' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Information' }));
    expect(await screen.findByText(ENTITY_MESSAGES.saved)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ street: '1 Market St', country: 'US' });
  });

  it("checks the emails' shape before saving", async () => {
    const { calls } = renderArea(<EntityProfileForm entity={anEntity()} />);
    fireEvent.change(input('Other email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Information' }));
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('takes focus to the country when the stored one is not on the list, marked invalid with its message', async () => {
    const { calls } = renderArea(<EntityProfileForm entity={anEntity({ country: 'XX' })} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save Information' }));
    await waitFor(() => expect(document.activeElement).toBe(input('Country')));
    expect(input('Country').getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(input('Country').getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toBe(ENTITY_MESSAGES.invalidCountry);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("toasts 'error updating entity' and shows the server's field messages", async () => {
    renderArea(<EntityProfileForm entity={anEntity()} />, (c) =>
      c.method === 'PUT'
        ? {
            status: 400,
            body: {
              error: 'bad_request',
              message: 'Choose a country from the list',
              fields: { zip: 'Zip is too long' },
            },
          }
        : undefined,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save Information' }));
    expect(await screen.findByText(ENTITY_MESSAGES.failed)).toBeTruthy();
    expect(screen.getByText('Zip is too long')).toBeTruthy();
    // The field refused takes the focus, and a screen reader reads its message with it.
    await waitFor(() => expect(document.activeElement).toBe(input('Zip Code')));
    expect(input('Zip Code').getAttribute('aria-invalid')).toBe('true');
  });

  it('disables everything for a read-only entity, on the profile page of a client who is not read-only', async () => {
    const entity = anEntity({ readonly_access: true });
    renderArea(
      <SelectedEntityContext.Provider value={{ entity, entities: [entity], select: () => {} }}>
        <ProfileRoute basePath="/profile" />
      </SelectedEntityContext.Provider>,
      (c) => (c.path === '/current_user' ? { body: aUser() } : undefined),
    );
    await screen.findByRole('button', { name: 'Save Information' });
    // The client's own profile stays editable.
    expect((screen.getByRole('button', { name: 'Update Profile' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    for (const label of [
      'Entity email',
      'Other email',
      'Street Address',
      'City',
      'State',
      'Zip Code',
      'Country',
    ])
      expect(input(label).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Save Information' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});

describe('advisor preview of a client profile', () => {
  it('shows the client profile and entity with every input disabled and no save', async () => {
    const { calls } = renderArea(
      <PreviewUserRoute basePath="/preview/user" />,
      (c) => {
        if (c.path === '/users/u-9') return { body: aUser({ id: 'u-9', company_ids: ['c-1', 'c-2'] }) };
        if (c.path === '/companies/c-1') return { body: anEntity() };
        if (c.path === '/companies/c-2' || c.path === '/companies/h2')
          return { body: anEntity({ id: 'c-2', hash_id: 'h2', name: 'Trust' }) };
        return undefined;
      },
      '/u-9?previewCompanyHash=h2',
    );
    await waitFor(() => expect(screen.getByTestId('profile-preview')).toBeTruthy());
    await screen.findByRole('heading', { name: 'Trust' });
    const inputs = screen
      .getByTestId('profile-preview')
      .querySelectorAll('form input, form textarea') as NodeListOf<HTMLInputElement>;
    expect(inputs.length).toBeGreaterThanOrEqual(14);
    for (const el of inputs) expect(el.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Update Profile' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save Information' })).toBeNull();
    expect(calls.every((c) => c.method === 'GET')).toBe(true);
  });

  it("shows the entity the link names past the first twenty, and says so when the link names another client's", async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `c-${i + 1}`);
    const answer = (c: Call) => {
      if (c.path === '/users/u-9') return { body: aUser({ id: 'u-9', company_ids: ids }) };
      const id = c.path.replace('/companies/', '');
      if (id === 'h25') return { body: anEntity({ id: 'c-25', hash_id: 'h25', name: 'Twenty-fifth LLC' }) };
      if (id === 'h-other')
        return { body: anEntity({ id: 'c-99', hash_id: 'h-other', name: 'Someone Else Inc' }) };
      if (ids.includes(id))
        return { body: anEntity({ id, hash_id: `h${id.slice(2)}`, name: `Entity ${id}` }) };
      return undefined;
    };
    const first = renderArea(
      <PreviewUserRoute basePath="/preview/user" />,
      answer,
      '/u-9?previewCompanyHash=h25',
    );
    await screen.findByRole('heading', { name: 'Twenty-fifth LLC' });
    first.unmount();
    renderArea(<PreviewUserRoute basePath="/preview/user" />, answer, '/u-9?previewCompanyHash=h-other');
    expect((await screen.findByTestId('preview-entity-not-found')).textContent).toContain(
      "not one of Alice Anders's entities",
    );
    expect(screen.queryByRole('heading', { name: 'Someone Else Inc' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Entity c-1' })).toBeNull();
  });

  it("says the client's entities could not be read, and reads them again on Try again", async () => {
    let reads = 0;
    renderArea(
      <PreviewUserRoute basePath="/preview/user" />,
      (c) => {
        if (c.path === '/users/u-9') return { body: aUser({ id: 'u-9', company_ids: ['c-1', 'c-2'] }) };
        if (c.path === '/companies/c-1') return { body: anEntity() };
        if (c.path === '/companies/c-2') {
          reads += 1;
          return reads === 1
            ? { status: 503, body: { error: 'unavailable', message: 'Service Unavailable' } }
            : { body: anEntity({ id: 'c-2', hash_id: 'h2', name: 'Trust' }) };
        }
        return undefined;
      },
      '/u-9',
    );
    const failed = await screen.findByTestId('preview-entities-failed');
    expect(failed.textContent).toContain('Failed to fetch companies');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByTestId('preview-entities-failed')).toBeNull());
    await screen.findByRole('heading', { name: 'Anders Design LLC' });
  });

  it('says the user is not found when the gateway answers 404', async () => {
    renderArea(
      <PreviewUserRoute basePath="/preview/user" />,
      (c) => (c.path === '/users/u-other' ? { status: 404, body: { error: 'Not found' } } : undefined),
      '/u-other',
    );
    await screen.findByRole('heading', { name: 'User not found' });
    expect(screen.queryByTestId('profile-preview')).toBeNull();
  });
});
