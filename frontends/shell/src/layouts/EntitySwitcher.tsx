import { type Entity, EntityCombobox } from '@portico/kit';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type RecentEntity, readRecentEntities, rememberEntity } from './recent-entities.js';

/**
 * The entity switcher of the advisor navigation (spec 1 s.2.2): an empty filter box lists this user's
 * recent entities (up to 10), typing searches the firm's companies, choosing one goes to /admin/{hash},
 * the entity's own page (which opens the entity's first page an area serves while its Dashboard is not
 * built).
 */
export function EntitySwitcher({ userId, label }: { userId: string; label: string }) {
  const navigate = useNavigate();
  const [recent, setRecent] = useState<RecentEntity[]>(() => readRecentEntities(userId));
  return (
    <EntityCombobox
      label={label}
      placeholder="Search entities"
      value={null}
      // A recent entry is part of an Entity: the combobox lists its id, name and inactive flag, and a
      // choice is used here for its hash_id and what rememberEntity keeps.
      suggestions={recent as Entity[]}
      withinPortal
      onChange={(entity) => {
        setRecent(rememberEntity(userId, entity));
        navigate(`/admin/${encodeURIComponent(entity.hash_id)}`);
      }}
    />
  );
}
