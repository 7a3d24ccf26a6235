import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '../api/ApiProvider.js';
import type { Entity, EntityPage } from '../api/users.js';

/** Company search page size (spec 1 s.9). */
export const ENTITY_PAGE_SIZE = 10;
/** Entity search debounce in the selector and in the chips (spec 1 s.9). */
export const COMBOBOX_DEBOUNCE_MS = 300;
export const CHIPS_DEBOUNCE_MS = 160;
/** What a picker says when the entity list could not be read (spec 1 s.8, Entity list). */
export const ENTITIES_FAILED = 'Failed to fetch companies';
/** The combobox closes this long after it loses focus. */
export const COMBOBOX_BLUR_CLOSE_MS = 240;

export type EntitySearch = (params: {
  search_term: string;
  page: number;
  rows_per_page: number;
}) => Promise<EntityPage>;

/**
 * Paged entity search with the term debounced; `search` defaults to GET /v2/entities. With
 * `searchEmpty` false nothing is asked while the (debounced) term is empty.
 */
export function useEntitySearch(
  term: string,
  debounceMs: number,
  enabled: boolean,
  search?: EntitySearch,
  searchEmpty = true,
) {
  const api = useApi();
  const [debounced] = useDebouncedValue(term.trim(), debounceMs);
  const run: EntitySearch = search ?? ((p) => api.companies.list(p));
  const query = useInfiniteQuery({
    queryKey: ['entities', 'search', debounced],
    queryFn: ({ pageParam }) =>
      run({ search_term: debounced, page: pageParam, rows_per_page: ENTITY_PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: (last: EntityPage) =>
      last.current_page < last.total_pages ? last.current_page + 1 : undefined,
    enabled: enabled && (searchEmpty || debounced !== ''),
    staleTime: 30_000,
  });
  const entities: Entity[] = query.data?.pages.flatMap((p) => p.companies) ?? [];
  return { entities, term: debounced, query };
}
