import { describe, expect, it } from '@jest/globals';
import { AppError, type BusClient, createLogger } from '@portico/platform';
import type { DropOffReceived } from '@portico/proto';
import type { AccessClient } from '../access/access.client.js';
import type { DocumentsConfig } from '../config.js';
import { DropOffNotifier } from '../drop-links/drop-off-notifier.js';

/** A firm with two users chosen for drop-off notices, and a bus that records the emails asked for. */
function notifierWith(send: (to: string) => Promise<unknown>) {
  const access = {
    firmContacts: async () => ({
      preferences: { firmUserIdsToReceiveDropLinkNotification: ['u-1', 'u-2'] },
      users: [
        { id: 'u-1', email: 'ops@my_firm.com' },
        { id: 'u-2', email: 'partner@firm.test' },
      ],
    }),
  } as unknown as AccessClient;
  const bus = {
    request: async (_contract: unknown, req: { to: string }) => send(req.to),
  } as unknown as BusClient;
  const config = { PUBLIC_URL: 'https://portal.test' } as DocumentsConfig;
  return new DropOffNotifier(access, bus, config, createLogger('test', 'silent'));
}

const event = {
  firmId: 'f-1',
  uploaderEmail: 'jo@example.com',
  uploaderName: 'Jo',
  names: ['W-2.pdf'],
} as DropOffReceived;

describe('drop-off notices', () => {
  it("still notify the other users when one user's address is refused for good, and are not sent again for it", async () => {
    const sent: string[] = [];
    const notifier = notifierWith(async (to) => {
      if (to === 'ops@my_firm.com')
        throw new AppError('bad_request', 'invalid_email', 'Invalid email address');
      sent.push(to);
    });
    await expect(notifier.notify(event, 'e-1')).resolves.toBeUndefined();
    expect(sent).toEqual(['partner@firm.test']);
  });

  it('fail the event, to come again, when notifications is away', async () => {
    const notifier = notifierWith(async () => {
      throw new AppError(
        'unavailable',
        'bus_disconnected',
        'The service is not available right now. Please try again.',
      );
    });
    await expect(notifier.notify(event, 'e-2')).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
