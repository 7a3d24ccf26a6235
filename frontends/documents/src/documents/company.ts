import { type Api, type Entity, isApiError } from '@portico/kit';

/**
 * The company of a route's companyHash: among the entities the shell already knows (the client's own),
 * else GET /companies/{hash}, which takes the hash as well as the id. Null when the caller may not see
 * it (the gateway answers 404 for another firm's entity, or one the caller is not given).
 */
export async function resolveCompany(api: Api, hash: string, known: Entity[] = []): Promise<Entity | null> {
  const local = known.find((e) => e.hash_id === hash || e.id === hash);
  if (local) return local;
  try {
    return await api.companies.get(hash);
  } catch (err) {
    if (isApiError(err) && err.status === 404) return null;
    throw err;
  }
}
