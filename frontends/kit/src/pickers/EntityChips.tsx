import { Combobox, Group, Pill, PillsInput, Select, Text, useCombobox } from '@mantine/core';
import { useState } from 'react';
import { useApi } from '../api/ApiProvider.js';
import type { Entity } from '../api/users.js';
import { CHIPS_DEBOUNCE_MS, ENTITIES_FAILED, type EntitySearch, useEntitySearch } from './useEntitySearch.js';

/** Chips shown before '+N more' (the spec fixes a limit without stating it). */
export const DEFAULT_VISIBLE_CHIPS = 3;

export interface EntityChipsProps {
  value: Entity[];
  onChange: (entities: Entity[]) => void;
  /** Single selection: the limit is 1 and a new choice replaces the old one. */
  single?: boolean;
  visibleChips?: number;
  label?: string;
  placeholder?: string;
  search?: EntitySearch;
  /**
   * Bulk selection by entity type (spec 1 s.2.10), off unless given: the firm's entity types. Choosing
   * one adds every active entity of that type.
   */
  entityTypes?: string[];
  /** Every entity of a type; defaults to GET /v2/entities filtered by type, all pages. */
  entitiesOfType?: (entityType: string) => Promise<Entity[]>;
}

/** Entity multi-select chips (spec 1 s.2.10, s.9): 160 ms search debounce, '+N more' past the limit. */
export function EntityChips({
  value,
  onChange,
  single = false,
  visibleChips = DEFAULT_VISIBLE_CHIPS,
  label,
  placeholder = 'Search entities',
  search,
  entityTypes,
  entitiesOfType,
}: EntityChipsProps) {
  const api = useApi();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [text, setText] = useState('');
  const { entities, query } = useEntitySearch(text, CHIPS_DEBOUNCE_MS, combobox.dropdownOpened, search);
  const selected = new Set(value.map((e) => e.id));
  const limit = single ? 1 : visibleChips;
  const shown = value.slice(0, limit);
  const hidden = value.length - shown.length;

  const remove = (entity: Entity) => onChange(value.filter((e) => e.id !== entity.id));
  // An inactive entity cannot be chosen, but one chosen before it became inactive can be removed.
  const toggle = (entity: Entity) => {
    if (selected.has(entity.id)) remove(entity);
    else if (entity.inactive) return;
    else onChange(single ? [entity] : [...value, entity]);
    if (single) combobox.closeDropdown();
  };

  const [addingType, setAddingType] = useState(false);
  const addType = async (entityType: string) => {
    setAddingType(true);
    try {
      const ofType = entitiesOfType
        ? await entitiesOfType(entityType)
        : (await api.companies.listAll({ entity_type: entityType })).companies;
      const added = ofType.filter((e) => !e.inactive && !selected.has(e.id));
      if (added.length) onChange([...value, ...added]);
    } finally {
      setAddingType(false);
    }
  };

  const chips = (
    <Combobox
      store={combobox}
      withinPortal={false}
      onOptionSubmit={(id) => {
        const entity = entities.find((e) => e.id === id);
        if (entity) toggle(entity);
        setText('');
      }}
    >
      <Combobox.DropdownTarget>
        <PillsInput label={label} onClick={() => combobox.openDropdown()}>
          <Pill.Group>
            {shown.map((e) => (
              <Pill key={e.id} withRemoveButton onRemove={() => remove(e)} data-testid="entity-chip">
                {e.name}
              </Pill>
            ))}
            {hidden > 0 && <Pill data-testid="entity-chips-more">+{hidden} more</Pill>}
            <Combobox.EventsTarget withExpandedAttribute>
              <PillsInput.Field
                value={text}
                placeholder={value.length ? undefined : placeholder}
                aria-label={label ?? placeholder}
                onFocus={() => combobox.openDropdown()}
                onBlur={() => combobox.closeDropdown()}
                onChange={(e) => {
                  setText(e.currentTarget.value);
                  combobox.openDropdown();
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Backspace' && text === '' && value.length) onChange(value.slice(0, -1));
                }}
              />
            </Combobox.EventsTarget>
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>
      <Combobox.Dropdown>
        <Combobox.Options mah={280} style={{ overflowY: 'auto' }}>
          {entities.map((e) => (
            <Combobox.Option key={e.id} value={e.id} disabled={e.inactive} active={selected.has(e.id)}>
              <Text size="sm" fw={selected.has(e.id) ? 600 : undefined}>
                {e.name}
                {e.inactive ? ' (Inactive)' : ''}
              </Text>
            </Combobox.Option>
          ))}
          {entities.length === 0 && (
            <Combobox.Empty>{query.isError ? ENTITIES_FAILED : 'No entities found'}</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
  if (single || !entityTypes?.length) return chips;
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <div style={{ flex: 1, minWidth: 0 }}>{chips}</div>
      <Select
        aria-label="Select all of an entity type"
        placeholder="Select by entity type"
        data={entityTypes}
        value={null}
        disabled={addingType}
        onChange={(type) => {
          if (type) void addType(type);
        }}
        w={200}
      />
    </Group>
  );
}
