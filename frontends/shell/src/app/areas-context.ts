import type { RemoteDescriptor } from '@portico/kit';
import { createContext, useContext } from 'react';
import type { AreaStatus } from '../remotes/registry.js';

export const AreasContext = createContext<{ areas: AreaStatus[]; descriptors: RemoteDescriptor[] }>({
  areas: [],
  descriptors: [],
});
export const useAreas = () => useContext(AreasContext);
