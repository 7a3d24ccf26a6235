import type { Api, Entity } from '@portico/kit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 100;

/**
 * The company of a route's companyHash. The gateway has no lookup by hash: the entities the shell
 * already knows (the client's entity list) come first, then an id given as such, then the entity
 * list pages (GET /v2/entities, which carries hash_id).
 */
export async function resolveCompany(api: Api, hash: string, known: Entity[] = []): Promise<Entity | null> {
  const local = known.find((e) => e.hash_id === hash || e.id === hash);
  if (local) return local;
  if (UUID.test(hash)) {
    try {
      return await api.companies.get(hash);
    } catch {
      // fall through to the list
    }
  }
  for (let page = 1; page <= 200; page++) {
    const result = await api.client.get<{ companies: Entity[]; count?: number }>('/v2/entities', {
      query: { rows_per_page: PAGE, page, include_inactive: 'true' },
    });
    const found = result.companies.find((e) => e.hash_id === hash);
    if (found) return found;
    if (result.companies.length < PAGE) break;
  }
  return null;
}
