import { describe, expect, it } from '@jest/globals';
import { type CurrentFirm, ShellContext } from '@portico/kit';
import { aCurrentUser, renderArea } from '@portico/kit/testing';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ClientLayout } from '../layouts/ClientLayout.js';

const firm = {
  name: 'Demo CPA',
  logo_url: '',
  preferences: { in_app_banner_enabled: false, in_app_banner_text: '' },
} as unknown as CurrentFirm;
const entity = { id: 'c1', hash_id: 'h1', name: 'Alice Anders', entity_type: 'Individual', inactive: false };

const renderLayout = (reply: Parameters<typeof renderArea>[1]) =>
  renderArea(
    <ShellContext.Provider value={{ signOut: async () => undefined, apiUrl: 'http://api.test' }}>
      <ClientLayout
        user={aCurrentUser()}
        firm={firm}
        ctx={{ signedIn: true, isAdvisor: false, preferences: {} }}
      />
    </ShellContext.Provider>,
    reply,
  );

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
});
