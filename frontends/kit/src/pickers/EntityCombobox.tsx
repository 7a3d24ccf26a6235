import { Combobox, InputBase, Loader, Text, useCombobox } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { Entity } from '../api/users.js';
import {
  COMBOBOX_BLUR_CLOSE_MS,
  COMBOBOX_DEBOUNCE_MS,
  ENTITIES_FAILED,
  type EntitySearch,
  useEntitySearch,
} from './useEntitySearch.js';

export interface EntityComboboxProps {
  value: Entity | null;
  onChange: (entity: Entity) => void;
  label?: string;
  placeholder?: string;
  search?: EntitySearch;
  disabled?: boolean;
  /** Listed instead of the search's first page while the box is empty (recent entities, say). */
  suggestions?: readonly Entity[];
  /** The list in a portal, for a box inside a scrolling or clipped container such as the navigation. */
  withinPortal?: boolean;
}

/**
 * Entity selector combobox (spec 1 s.2.10): searches as you type (300 ms debounce, 10 per page, more on
 * demand), closes 240 ms after focus leaves, and inactive entities cannot be chosen.
 */
export function EntityCombobox({
  value,
  onChange,
  label,
  placeholder = 'Search entities',
  search,
  disabled,
  suggestions = [],
  withinPortal = false,
}: EntityComboboxProps) {
  const combobox = useCombobox();
  const [text, setText] = useState('');
  const blurTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const searched = useEntitySearch(
    text,
    COMBOBOX_DEBOUNCE_MS,
    combobox.dropdownOpened,
    search,
    suggestions.length === 0,
  );
  // The suggestions stay until the debounced term asks for a search.
  const suggesting = suggestions.length > 0 && searched.term === '';
  const { query } = searched;
  const entities = suggesting ? [...suggestions] : searched.entities;

  useEffect(() => () => clearTimeout(blurTimer.current), []);

  const byId = new Map(entities.map((e) => [e.id, e]));
  return (
    <Combobox
      store={combobox}
      withinPortal={withinPortal}
      onOptionSubmit={(id) => {
        if (id === '__more') {
          void query.fetchNextPage();
          return;
        }
        const entity = byId.get(id);
        if (!entity || entity.inactive) return;
        onChange(entity);
        setText('');
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target withExpandedAttribute>
        <InputBase
          label={label}
          placeholder={value ? value.name : placeholder}
          value={text}
          disabled={disabled}
          rightSection={!suggesting && query.isFetching ? <Loader size="xs" /> : <Combobox.Chevron />}
          onChange={(e) => {
            setText(e.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => {
            clearTimeout(blurTimer.current);
            combobox.openDropdown();
          }}
          onClick={() => combobox.openDropdown()}
          // Enter chooses the highlighted entity (the combobox's own handler, which runs first) and never
          // submits a form around the picker: with none highlighted it would submit what is chosen so far.
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
          onBlur={() => {
            clearTimeout(blurTimer.current);
            blurTimer.current = setTimeout(() => combobox.closeDropdown(), COMBOBOX_BLUR_CLOSE_MS);
          }}
          aria-label={label ?? placeholder}
        />
      </Combobox.Target>
      <Combobox.Dropdown data-testid="entity-combobox-dropdown">
        <Combobox.Options mah={320} style={{ overflowY: 'auto' }} aria-label="Matching entities">
          {entities.map((e) => (
            <Combobox.Option key={e.id} value={e.id} disabled={e.inactive} active={e.id === value?.id}>
              <Text size="sm" c={e.inactive ? 'dimmed' : undefined}>
                {e.name}
                {e.inactive ? ' (Inactive)' : ''}
              </Text>
            </Combobox.Option>
          ))}
          {!suggesting && query.hasNextPage && <Combobox.Option value="__more">Show more</Combobox.Option>}
          {!suggesting && !query.isFetching && query.isError && (
            <Combobox.Empty>{ENTITIES_FAILED}</Combobox.Empty>
          )}
          {!suggesting && !query.isFetching && !query.isError && entities.length === 0 && (
            <Combobox.Empty>No entities found</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
