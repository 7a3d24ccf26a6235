import { describe, expect, it } from '@jest/globals';
import { createApi } from '@portico/kit';
import { resolveCompany } from '../documents/company.js';
import { aCompany, fakeApi } from './fixtures.js';

describe("the company of a route's hash", () => {
  it('takes a known entity first, then asks the gateway for the hash in one call', async () => {
    const mine = aCompany({ id: 'c-1', hash_id: 'Mine1234' });
    const far = aCompany({ id: 'c-99', hash_id: 'Far12345' });
    const gw = fakeApi((call) => (call.path === '/companies/Far12345' ? { body: far } : undefined));
    const api = createApi(gw.client);
    expect(await resolveCompany(api, 'Mine1234', [mine])).toBe(mine);
    expect(gw.calls).toHaveLength(0);
    expect((await resolveCompany(api, 'Far12345', [mine]))?.id).toBe('c-99');
    expect(gw.calls.map((c) => c.path)).toEqual(['/companies/Far12345']);
  });

  it("is none for a hash the gateway does not show (404), and an outage is an error, not 'not found'", async () => {
    const gw = fakeApi((call) =>
      call.path === '/companies/Down1234'
        ? { status: 503, body: { error: 'Service unavailable' } }
        : undefined,
    );
    const api = createApi(gw.client);
    expect(await resolveCompany(api, 'Other123')).toBeNull();
    await expect(resolveCompany(api, 'Down1234')).rejects.toMatchObject({ status: 503 });
  });
});
