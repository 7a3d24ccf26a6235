import { beforeEach, describe, expect, it } from '@jest/globals';
import type { Entity } from '@portico/kit';
import { fakeGateway, renderWithClient } from '@portico/kit/testing';
import { fireEvent, screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { EntitySwitcher } from '../layouts/EntitySwitcher.js';
import {
  forgetRecentEntities,
  RECENT_ENTITIES,
  readRecentEntities,
  rememberEntity,
} from '../layouts/recent-entities.js';

const company = (n: number, inactive = false) =>
  ({ id: `c${n}`, hash_id: `h${n}`, name: `Company ${n}`, entity_type: 'LLC', inactive }) as Entity;

function Where() {
  const { pathname } = useLocation();
  return <output data-testid="where">{pathname}</output>;
}

beforeEach(() => window.localStorage.clear());

describe('recent entities', () => {
  it('keeps the last 10 chosen, most recent first, once each, per user', () => {
    for (let n = 1; n <= 12; n++) rememberEntity('u1', company(n));
    rememberEntity('u1', company(5));
    const list = readRecentEntities('u1');
    expect(list).toHaveLength(RECENT_ENTITIES);
    expect(list.map((e) => e.id).slice(0, 3)).toEqual(['c5', 'c12', 'c11']);
    expect(list.filter((e) => e.id === 'c5')).toHaveLength(1);
    expect(readRecentEntities('u2')).toEqual([]);
  });

  it("forgets every user's recent entities on signing out, and nothing else of the storage", () => {
    rememberEntity('u1', company(1));
    rememberEntity('u2', company(2));
    window.localStorage.setItem('portico.remembered-firm', 'demo-cpa');
    forgetRecentEntities();
    expect(readRecentEntities('u1')).toEqual([]);
    expect(readRecentEntities('u2')).toEqual([]);
    expect(window.localStorage.getItem('portico.remembered-firm')).toBe('demo-cpa');
  });

  it('reads nothing from a damaged entry', () => {
    window.localStorage.setItem('portico.recent-entities.u1', '{not json');
    expect(readRecentEntities('u1')).toEqual([]);
    window.localStorage.setItem('portico.recent-entities.u1', JSON.stringify([{ name: 'no ids' }]));
    expect(readRecentEntities('u1')).toEqual([]);
  });
});

describe('entity switcher', () => {
  it('lists recent entities, searches the firm, and goes to the page of the chosen entity', async () => {
    rememberEntity('u1', company(2));
    const { client, calls } = fakeGateway((call) =>
      call.path.startsWith('/v2/entities')
        ? {
            body: {
              companies: [company(7), company(8, true)],
              current_page: 1,
              total_count: 2,
              total_pages: 1,
            },
          }
        : undefined,
    );
    renderWithClient(
      <>
        <EntitySwitcher userId="u1" label="Switch entity" />
        <Where />
      </>,
      client,
      '/admin/h1/documents',
    );
    const input = screen.getByLabelText('Switch entity');
    fireEvent.focus(input);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Company 2']);
    fireEvent.change(input, { target: { value: 'comp' } });
    // After the 300 ms debounce (real timers), the search and its render: room for a busy machine.
    expect(await screen.findByText('Company 7', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(calls.some((c) => c.path.includes('search_term=comp'))).toBe(true);
    fireEvent.click(screen.getByText('Company 8 (Inactive)'));
    expect(screen.getByTestId('where').textContent).toBe('/admin/h1/documents');
    fireEvent.click(screen.getByText('Company 7'));
    expect(screen.getByTestId('where').textContent).toBe('/admin/h7');
    expect(readRecentEntities('u1').map((e) => e.id)).toEqual(['c7', 'c2']);
  });
});
