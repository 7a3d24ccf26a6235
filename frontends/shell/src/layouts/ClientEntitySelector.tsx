import {
  Button,
  type Entity,
  Menu,
  ScrollArea,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@portico/kit';
import { useState } from 'react';

/** Entities listed before Show All; the filter shows above this many (spec 1 s.2.2, s.9). */
export const CLIENT_ENTITIES_SHOWN = 5;

/** The client's entity selector: only with more than one entity. */
export function ClientEntitySelector({
  entities,
  selected,
  onSelect,
}: {
  entities: Entity[];
  selected: Entity | null;
  onSelect: (entity: Entity) => void;
}) {
  const [showAll, setShowAll] = useState(false);
  const [filter, setFilter] = useState('');
  if (entities.length <= 1) return null;
  const term = filter.trim().toLowerCase();
  const matching = term ? entities.filter((e) => e.name.toLowerCase().includes(term)) : entities;
  const visible = showAll || term ? matching : matching.slice(0, CLIENT_ENTITIES_SHOWN);
  return (
    <Menu position="bottom-start" width={280} closeOnItemClick onClose={() => setFilter('')}>
      <Menu.Target>
        {/* Named by what it shows (the entity), then what it does, so speech input finds it by its text. */}
        <UnstyledButton data-testid="entity-selector">
          <Text fw={600} component="span">
            {selected?.name ?? 'Select entity'}
            <span aria-hidden> ▾</span>
          </Text>
          {selected ? <VisuallyHidden>, select entity</VisuallyHidden> : null}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {entities.length > CLIENT_ENTITIES_SHOWN && (
          <TextInput
            placeholder="Filter entities"
            aria-label="Filter entities"
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            m={4}
            data-testid="entity-filter"
          />
        )}
        <ScrollArea.Autosize mah={320}>
          {visible.map((e) => (
            <Menu.Item key={e.id} onClick={() => onSelect(e)} fw={e.id === selected?.id ? 600 : undefined}>
              {e.name}
            </Menu.Item>
          ))}
        </ScrollArea.Autosize>
        {!showAll && !term && matching.length > CLIENT_ENTITIES_SHOWN && (
          <Button
            variant="subtle"
            fullWidth
            size="xs"
            onClick={() => setShowAll(true)}
            data-testid="entity-show-all"
          >
            Show All
          </Button>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
