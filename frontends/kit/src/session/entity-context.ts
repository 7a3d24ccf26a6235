import { createContext, useContext } from 'react';
import type { Entity } from '../api/users.js';

/** The client's selected entity (client layout), for areas that work on one entity. */
export interface SelectedEntity {
  entity: Entity | null;
  entities: Entity[];
  select: (entity: Entity) => void;
}

export const SelectedEntityContext = createContext<SelectedEntity>({
  entity: null,
  entities: [],
  select: () => {},
});
export const useSelectedEntity = () => useContext(SelectedEntityContext);
