import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { ApiClient } from './client.js';
import { type SessionsApi, sessionsApi } from './sessions.js';
import { type CompaniesApi, companiesApi, type UsersApi, usersApi } from './users.js';

export interface Api {
  client: ApiClient;
  sessions: SessionsApi;
  users: UsersApi;
  companies: CompaniesApi;
}

const ApiContext = createContext<Api | null>(null);

export function createApi(client: ApiClient): Api {
  return { client, sessions: sessionsApi(client), users: usersApi(client), companies: companiesApi(client) };
}

/** Gives the shell's API client to every area (remotes share the kit, so they share this context). */
export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  const api = useMemo(() => createApi(client), [client]);
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi needs an ApiProvider');
  return api;
}
