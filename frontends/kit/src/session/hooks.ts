import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/ApiProvider.js';

export const CURRENT_USER_KEY = ['current_user'] as const;
export const CURRENT_FIRM_KEY = ['current_user_firm'] as const;

/** The signed-in user (GET /current_user), cached for every area. */
export function useCurrentUser(enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: () => api.users.currentUser(),
    enabled,
    staleTime: 60_000,
  });
}

/** The user's firm with every preference (GET /firms/current_user_firm). */
export function useCurrentFirm(enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: CURRENT_FIRM_KEY,
    queryFn: () => api.users.currentFirm(),
    enabled,
    staleTime: 60_000,
  });
}

export { ShellContext, type ShellServices, useShell } from './shell-context.js';
