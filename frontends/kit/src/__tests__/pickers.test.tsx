import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import type { Entity, EntityPage } from '../api/users.js';
import { EntityChips } from '../pickers/EntityChips.js';
import { EntityCombobox } from '../pickers/EntityCombobox.js';
import { EntityTypeSelect, FirmGroupSelect } from '../pickers/selectors.js';
import type { EntitySearch } from '../pickers/useEntitySearch.js';
import { renderWithKit } from './render.js';

const entity = (id: string, name: string, inactive = false) => ({ id, name, inactive }) as Entity;
const ENTITIES = [
  entity('1', 'Acme LLC'),
  entity('2', 'Acme Trust'),
  entity('3', 'Old Acme', true),
  entity('4', 'Beta Inc'),
];

function searchSpy() {
  const calls: { search_term: string; page: number; rows_per_page: number }[] = [];
  const search: EntitySearch = async (p) => {
    calls.push(p);
    const found = ENTITIES.filter((e) => e.name.toLowerCase().includes(p.search_term.toLowerCase()));
    return { companies: found, current_page: 1, total_count: found.length, total_pages: 1 } as EntityPage;
  };
  return { calls, search };
}

/** Lets timers and the promises they release run. */
async function advance(ms: number) {
  await act(async () => {
    jest.advanceTimersByTime(ms);
  });
  await act(async () => {
    await Promise.resolve();
  });
}

function ComboHarness({ search, onChange }: { search: EntitySearch; onChange: (e: Entity) => void }) {
  const [value, setValue] = useState<Entity | null>(null);
  return (
    <EntityCombobox
      label="Entity"
      value={value}
      search={search}
      onChange={(e) => {
        setValue(e);
        onChange(e);
      }}
    />
  );
}

function SingleHarness({ search, changes }: { search: EntitySearch; changes: Entity[][] }) {
  const [value, setValue] = useState<Entity[]>([ENTITIES[0] as Entity]);
  return (
    <EntityChips
      label="Entity"
      single
      value={value}
      search={search}
      onChange={(v) => {
        changes.push(v);
        setValue(v);
      }}
    />
  );
}

describe('EntityCombobox', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('searches 300 ms after typing stops, 10 per page', async () => {
    const { calls, search } = searchSpy();
    renderWithKit(<ComboHarness search={search} onChange={() => {}} />);
    const input = screen.getByLabelText('Entity');
    fireEvent.focus(input);
    await advance(0);
    const initial = calls.length;
    fireEvent.change(input, { target: { value: 'ac' } });
    await advance(150);
    fireEvent.change(input, { target: { value: 'acm' } });
    await advance(299);
    expect(calls.filter((c) => c.search_term === 'acm')).toHaveLength(0);
    await advance(1);
    await advance(0);
    expect(calls.slice(initial).map((c) => c.search_term)).toEqual(['acm']);
    expect(calls.at(-1)).toMatchObject({ page: 1, rows_per_page: 10 });
  });

  it('says the entities could not be read, not that there are none, when the search fails', async () => {
    const failing: EntitySearch = async () => {
      throw new Error('Service Unavailable');
    };
    renderWithKit(<ComboHarness search={failing} onChange={() => {}} />);
    fireEvent.focus(screen.getByLabelText('Entity'));
    await advance(300);
    await advance(0);
    expect(screen.getByText('Failed to fetch companies')).toBeTruthy();
    expect(screen.queryByText('No entities found')).toBeNull();
  });

  it('lists inactive entities as not selectable', async () => {
    const { search } = searchSpy();
    const chosen: Entity[] = [];
    renderWithKit(<ComboHarness search={search} onChange={(e) => chosen.push(e)} />);
    const input = screen.getByLabelText('Entity');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'acme' } });
    await advance(300);
    await advance(0);
    // A combobox to assistive technology: expanded, and naming the list it controls.
    expect(input.getAttribute('role')).toBe('combobox');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(input.getAttribute('aria-controls') ?? '');
    expect(list?.getAttribute('role')).toBe('listbox');
    const inactive = screen.getByText('Old Acme (Inactive)').closest('[role="option"]');
    expect(inactive?.getAttribute('data-combobox-disabled')).toBe('true');
    fireEvent.click(inactive as Element);
    expect(chosen).toEqual([]);
    fireEvent.click(screen.getByText('Acme LLC'));
    expect(chosen.map((e) => e.id)).toEqual(['1']);
  });

  it('lists the suggestions while the box is empty and searches once something is typed', async () => {
    const { calls, search } = searchSpy();
    const chosen: Entity[] = [];
    renderWithKit(
      <EntityCombobox
        label="Entity"
        value={null}
        search={search}
        suggestions={[entity('4', 'Beta Inc'), entity('3', 'Old Acme', true)]}
        onChange={(e) => chosen.push(e)}
      />,
    );
    const input = screen.getByLabelText('Entity');
    fireEvent.focus(input);
    await advance(300);
    await advance(0);
    expect(calls).toEqual([]);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Beta Inc',
      'Old Acme (Inactive)',
    ]);
    fireEvent.click(screen.getByText('Old Acme (Inactive)'));
    expect(chosen).toEqual([]);
    fireEvent.change(input, { target: { value: 'trust' } });
    await advance(300);
    await advance(0);
    expect(calls.map((c) => c.search_term)).toEqual(['trust']);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme Trust']);
  });

  it('closes 240 ms after losing focus', async () => {
    const { search } = searchSpy();
    renderWithKit(<ComboHarness search={search} onChange={() => {}} />);
    const input = screen.getByLabelText('Entity');
    fireEvent.focus(input);
    await advance(300);
    await advance(0);
    // Mantine keeps a closed dropdown mounted and hidden.
    const shown = () => screen.getByTestId('entity-combobox-dropdown').style.display !== 'none';
    expect(shown()).toBe(true);
    fireEvent.blur(input);
    await advance(239);
    expect(shown()).toBe(true);
    await advance(1);
    expect(shown()).toBe(false);
  });
});

describe('EntityChips', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('searches 160 ms after typing stops', async () => {
    const { calls, search } = searchSpy();
    renderWithKit(<EntityChips label="Entities" value={[]} onChange={() => {}} search={search} />);
    const input = screen.getByLabelText('Entities');
    fireEvent.focus(input);
    await advance(0);
    const before = calls.length;
    fireEvent.change(input, { target: { value: 'beta' } });
    await advance(159);
    expect(calls.slice(before).some((c) => c.search_term === 'beta')).toBe(false);
    await advance(1);
    await advance(0);
    expect(calls.slice(before).map((c) => c.search_term)).toEqual(['beta']);
  });

  it('says the entities could not be read when the search fails', async () => {
    const failing: EntitySearch = async () => {
      throw new Error('Service Unavailable');
    };
    renderWithKit(<EntityChips label="Entities" value={[]} onChange={() => {}} search={failing} />);
    fireEvent.focus(screen.getByLabelText('Entities'));
    await advance(160);
    await advance(0);
    expect(screen.getByText('Failed to fetch companies')).toBeTruthy();
  });

  it("shows '+N more' past the visible limit", () => {
    renderWithKit(
      <EntityChips
        label="Entities"
        value={ENTITIES}
        onChange={() => {}}
        visibleChips={2}
        search={searchSpy().search}
      />,
    );
    expect(screen.getAllByTestId('entity-chip')).toHaveLength(2);
    expect(screen.getByTestId('entity-chips-more').textContent).toBe('+2 more');
  });

  it('removes a chosen entity that has become inactive with its remove button', () => {
    const changes: Entity[][] = [];
    const chosen = ENTITIES.filter((e) => e.id === '3' || e.id === '4');
    renderWithKit(
      <EntityChips
        label="Entities"
        value={chosen}
        onChange={(next) => changes.push(next)}
        search={searchSpy().search}
      />,
    );
    const [oldAcme] = screen.getAllByTestId('entity-chip');
    fireEvent.click(oldAcme?.querySelector('button') as HTMLButtonElement);
    expect(changes.at(-1)?.map((e) => e.id)).toEqual(['4']);
  });

  it('keeps one entity in single selection, a new choice replacing it', async () => {
    const { search } = searchSpy();
    const changes: Entity[][] = [];
    renderWithKit(<SingleHarness search={search} changes={changes} />);
    expect(screen.getAllByTestId('entity-chip')).toHaveLength(1);
    const input = screen.getByLabelText('Entity');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'beta' } });
    await advance(160);
    await advance(0);
    fireEvent.click(screen.getByText('Beta Inc'));
    expect(changes.at(-1)?.map((e) => e.id)).toEqual(['4']);
    expect(screen.getAllByTestId('entity-chip')).toHaveLength(1);
    expect(screen.queryByTestId('entity-chips-more')).toBeNull();
  });
});

describe('EntityChips bulk selection by entity type', () => {
  it('adds every active entity of the chosen type that is not chosen yet', async () => {
    const asked: string[] = [];
    const changes: Entity[][] = [];
    const beta = ENTITIES.find((e) => e.id === '4') as Entity;
    const ofType = async (type: string) => {
      asked.push(type);
      return ENTITIES.filter((e) => e.name.includes('Acme'));
    };
    renderWithKit(
      <EntityChips
        label="Entities"
        value={[beta, ENTITIES[1] as Entity]}
        onChange={(next) => changes.push(next)}
        search={searchSpy().search}
        entityTypes={['LLC', 'Trust']}
        entitiesOfType={ofType}
      />,
    );
    const byType = screen.getByLabelText('Select all of an entity type', { selector: 'input' });
    fireEvent.keyDown(byType, { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.click(await screen.findByRole('option', { name: 'LLC' }));
    await waitFor(() => expect(changes).toHaveLength(1));
    expect(asked).toEqual(['LLC']);
    // Acme Trust was chosen already and Old Acme is inactive: only Acme LLC is added.
    expect(changes[0]?.map((e) => e.id)).toEqual(['4', '2', '1']);
  });

  it('is not offered without entity types or in single selection', () => {
    renderWithKit(
      <>
        <EntityChips label="Many" value={[]} onChange={() => {}} search={searchSpy().search} />
        <EntityChips
          label="One"
          single
          value={[]}
          onChange={() => {}}
          search={searchSpy().search}
          entityTypes={['LLC']}
        />
      </>,
    );
    expect(screen.queryByLabelText('Select all of an entity type')).toBeNull();
  });
});

describe('selectors', () => {
  it("shows Individual as 'Individual (Not Allowed)' when the firm does not allow it", () => {
    renderWithKit(
      <EntityTypeSelect
        entityTypes={['Individual', 'Partnership']}
        individualAllowed={false}
        dropdownOpened
      />,
    );
    const option = screen.getByText('Individual (Not Allowed)').closest('[role="option"]');
    expect(option?.getAttribute('data-combobox-disabled')).toBe('true');
    expect(screen.getByText('Partnership')).toBeTruthy();
  });

  it('offers Individual when allowed', () => {
    renderWithKit(<EntityTypeSelect entityTypes={['Individual']} individualAllowed dropdownOpened />);
    expect(screen.queryByText('Individual (Not Allowed)')).toBeNull();
    expect(screen.getByText('Individual')).toBeTruthy();
  });

  it('lists the firm groups', () => {
    renderWithKit(
      <FirmGroupSelect
        groups={[
          { id: 'g1', name: 'North' },
          { id: 'g2', name: 'South' },
        ]}
        dropdownOpened
      />,
    );
    expect(screen.getByText('North')).toBeTruthy();
    expect(screen.getByText('South')).toBeTruthy();
  });
});
