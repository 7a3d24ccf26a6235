import { beforeEach, describe, expect, it } from '@jest/globals';
import {
  type CurrentFirm,
  type CurrentUser,
  type Entity,
  IN_APP_BANNER_COOKIE,
  ShellContext,
  writeCookie,
} from '@portico/kit';
import { aCurrentUser, renderArea } from '@portico/kit/testing';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { ClientLayout } from '../layouts/ClientLayout.js';

const firmWithBanner = (text: string, enabled = true) =>
  ({
    name: 'Demo CPA',
    logo_url: '',
    preferences: { in_app_banner_enabled: enabled, in_app_banner_text: text },
  }) as unknown as CurrentFirm;
const firm = firmWithBanner('', false);
const entity = { id: 'c1', hash_id: 'h1', name: 'Alice Anders', entity_type: 'Individual', inactive: false };

/** Changes the firm the mounted layout was given, as a new answer of the firm's query would. */
let changeFirm: (firm: CurrentFirm) => void = () => {};

/** The layout with the firm held in state, so a test can give it another firm without remounting. */
function LayoutOfFirm({ user, initialFirm }: { user: CurrentUser; initialFirm: CurrentFirm }) {
  const [current, setCurrent] = useState(initialFirm);
  changeFirm = setCurrent;
  return (
    <ClientLayout user={user} firm={current} ctx={{ signedIn: true, isAdvisor: false, preferences: {} }} />
  );
}

const renderLayout = (
  reply: Parameters<typeof renderArea>[1],
  { user = aCurrentUser(), firm: initialFirm = firm }: { user?: CurrentUser; firm?: CurrentFirm } = {},
) =>
  renderArea(
    <ShellContext.Provider value={{ signOut: async () => undefined, apiUrl: 'http://api.test' }}>
      <LayoutOfFirm user={user} initialFirm={initialFirm} />
    </ShellContext.Provider>,
    reply,
  );

/** The gateway of a client with these entities (all active). */
const withEntities =
  (companies: Partial<Entity>[]): Parameters<typeof renderArea>[1] =>
  (call) => {
    if (call.path.startsWith('/v2/entities'))
      return { body: { companies, current_page: 1, total_pages: 1, total_count: companies.length } };
    if (call.path === '/set_default_company') return { body: {} };
    return undefined;
  };

const ENTITY_READ_ONLY =
  'This entity is read-only. If you need to upload documents or answer questionnaires, please send us an email.';

describe('client layout', () => {
  it('shows a client whose entities are all inactive only the message and Sign out, focused', async () => {
    renderLayout((call) =>
      call.path.startsWith('/v2/entities')
        ? { body: { companies: [], current_page: 1, total_pages: 0, total_count: 0 } }
        : undefined,
    );
    const dialog = await screen.findByRole('dialog', { name: 'No active entities' });
    expect(dialog.textContent).toContain(
      'Your account does not have active entities to view. Please contact your firm.',
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign out' }));
    // Nothing of the page behind it for the keyboard or a screen reader to reach.
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('main')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('says the entity list could not be read, instead of showing a client without entities, and reads it again on Try again', async () => {
    let entityLists = 0;
    const { calls } = renderLayout((call) => {
      if (!call.path.startsWith('/v2/entities')) return undefined;
      entityLists += 1;
      return entityLists === 1
        ? { status: 503, body: { error: 'unavailable', message: 'Service Unavailable' } }
        : { body: { companies: [entity], current_page: 1, total_pages: 1, total_count: 1 } };
    });
    const alert = await screen.findByTestId('entities-failed');
    expect(alert.textContent).toContain('Failed to fetch companies');
    // Not the overlay of a client whose entities are all inactive.
    expect(screen.queryByText(/inactive/i)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByTestId('entities-failed')).toBeNull());
    expect(calls.filter((c) => c.path.startsWith('/v2/entities')).length).toBeGreaterThanOrEqual(2);
  });

  it("tells a client that the selected entity is read-only, in the spec's words, and not of a writable one", async () => {
    const readOnly = { ...entity, id: 'c2', hash_id: 'h2', name: 'Anders Trust', readonly_access: true };
    renderLayout(withEntities([{ ...entity, readonly_access: false }, readOnly]), {
      user: aCurrentUser({ default_company_id: 'c2' }),
    });
    expect((await screen.findByTestId('read-only-entity')).textContent).toBe(ENTITY_READ_ONLY);
    expect(screen.queryByTestId('read-only-account')).toBeNull();
    fireEvent.click(screen.getByTestId('entity-selector'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Alice Anders' }));
    await waitFor(() => expect(screen.queryByTestId('read-only-entity')).toBeNull());
    expect(screen.queryByText(ENTITY_READ_ONLY)).toBeNull();
    expect(screen.getByTestId('entity-selector').textContent).toContain('Alice Anders');
  });

  it("keeps a read-only client's choice of entity for the visit without saving it as the default", async () => {
    const second = { ...entity, id: 'c2', hash_id: 'h2', name: 'Anders Trust' };
    const { calls } = renderLayout(withEntities([entity, second]), {
      user: aCurrentUser({ readonly_access: true }),
    });
    fireEvent.click(await screen.findByTestId('entity-selector'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Anders Trust' }));
    await waitFor(() => expect(screen.getByTestId('entity-selector').textContent).toContain('Anders Trust'));
    expect(calls.filter((c) => c.path === '/set_default_company')).toEqual([]);
  });

  it('tells a read-only client of the account only, whatever the entity', async () => {
    renderLayout(withEntities([{ ...entity, readonly_access: true }]), {
      user: aCurrentUser({ readonly_access: true }),
    });
    expect((await screen.findByTestId('read-only-account')).textContent).toBe(
      'This account is read-only. If you need to upload documents or answer questionnaires, please send us an email.',
    );
    expect(screen.queryByTestId('read-only-entity')).toBeNull();
  });

  describe("the firm's in-app banner", () => {
    beforeEach(() => writeCookie(IN_APP_BANNER_COOKIE, '', 0));
    const banner = () => screen.queryByTestId('in-app-banner');

    it("shows the firm's text until dismissed, stays dismissed for that text, and shows a new one", async () => {
      renderLayout(withEntities([entity]), { firm: firmWithBanner('Office closed Friday') });
      expect((await screen.findByTestId('in-app-banner')).textContent).toBe('Office closed Friday');
      fireEvent.click(screen.getByRole('button', { name: 'Dismiss banner' }));
      expect(banner()).toBeNull();
      // The firm read again, the same text: still dismissed.
      act(() => changeFirm(firmWithBanner('Office closed Friday')));
      expect(banner()).toBeNull();
      act(() => changeFirm(firmWithBanner('Office closed Monday')));
      expect(banner()?.textContent).toBe('Office closed Monday');
    });

    it('stays dismissed on the next visit for the same text', async () => {
      const first = renderLayout(withEntities([entity]), { firm: firmWithBanner('Office closed Friday') });
      fireEvent.click(await screen.findByRole('button', { name: 'Dismiss banner' }));
      first.unmount();
      renderLayout(withEntities([entity]), { firm: firmWithBanner('Office closed Friday') });
      await screen.findByRole('main');
      expect(banner()).toBeNull();
    });

    it('is not shown while the firm has it turned off', async () => {
      renderLayout(withEntities([entity]), { firm: firmWithBanner('Office closed Friday', false) });
      await screen.findByRole('main');
      expect(banner()).toBeNull();
      act(() => changeFirm(firmWithBanner('Office closed Friday')));
      expect(banner()?.textContent).toBe('Office closed Friday');
    });
  });
});
