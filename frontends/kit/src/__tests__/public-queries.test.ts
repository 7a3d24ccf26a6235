import { describe, expect, it } from '@jest/globals';
import { QueryClient } from '@tanstack/react-query';
import { forgetSignedInQueries, PUBLIC_QUERY } from '../api/public-queries.js';

describe('the cached answers a session ending takes with it', () => {
  it("drops the user's answers and keeps those marked public (a visitor's drop-off page)", async () => {
    const client = new QueryClient();
    await client.prefetchQuery({ queryKey: ['current_user'], queryFn: () => ({ id: 'u1' }) });
    await client.prefetchQuery({
      queryKey: ['documents', 'drop-off', 'link', 'L1'],
      queryFn: () => ({ firm_name: 'Demo CPA' }),
      meta: PUBLIC_QUERY,
    });
    forgetSignedInQueries(client);
    expect(client.getQueryData(['current_user'])).toBeUndefined();
    expect(client.getQueryData(['documents', 'drop-off', 'link', 'L1'])).toEqual({ firm_name: 'Demo CPA' });
  });
});
