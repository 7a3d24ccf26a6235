import { describe, expect, it, jest } from '@jest/globals';
import { AppError, type BusClient, createLogger } from '@portico/platform';
import type { DropOffReceived } from '@portico/proto';
import type { AccessClient } from '../access/access.client.js';
import type { DocumentsConfig } from '../config.js';
import { dropLinkManagers, dropOffRecipients } from '../drop-links/drop-link-recipients.rules.js';
import { DropOffNotifier, readsAsWebAddress } from '../drop-links/drop-off-notifier.js';

/** A firm with two users chosen for drop-off notices, and a bus that records the emails asked for. */
function notifierWith(send: (to: string, text: string) => Promise<unknown>) {
  const access = {
    firmContacts: async () => ({
      preferences: { firmUserIdsToReceiveDropLinkNotification: ['u-1', 'u-2'] },
      users: [
        { id: 'u-1', email: 'ops@my_firm.com', firmAccess: 'full' },
        { id: 'u-2', email: 'partner@firm.test', firmAccess: 'partner' },
      ],
    }),
  } as unknown as AccessClient;
  const bus = {
    request: async (_contract: unknown, req: { to: string; text: string }) => send(req.to, req.text),
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
  it('leave out, counted, the file names a mail program could show as a web address', async () => {
    const texts: string[] = [];
    const notifier = notifierWith(async (_to, text) => {
      texts.push(text);
    });
    await notifier.notify(
      {
        ...event,
        names: [
          'W-2.pdf',
          'Verify account at www.evil-login.com.pdf',
          'evil-login.com.pdf',
          '1099.INT 2024.pdf',
          'Smith J. 2024.pdf',
        ],
      } as DropOffReceived,
      'e-3',
    );
    const text = texts[0] as string;
    // Before, every name was listed as the uploader chose it.
    expect(text).not.toMatch(/evil-login|www\./);
    expect(text).toContain('5 file(s) were dropped off');
    expect(text).toContain(
      '- W-2.pdf\n- 1099.INT 2024.pdf\n- Smith J. 2024.pdf\n- and 2 file(s) whose name could read as a web address, not shown here (see them in Drop Link)',
    );
  });

  it('read a name as a web address by its host name or www., not by its extension', () => {
    // An extension the portal does not know is read as part of the name ('evil.com', 'x.constructor').
    const links = ['www.x.pdf', 'login.evil.support.pdf', 'evil.com', 'éa.help.docx', 'x.constructor'];
    for (const name of links) expect([name, readsAsWebAddress(name)]).toEqual([name, true]);
    for (const name of ['W-2.pdf', 'scan 3.jpeg', 'Q1 1099.INT.pdf', 'notes.txt', 'Smith J. 2024.pdf'])
      expect([name, readsAsWebAddress(name)]).toEqual([name, false]);
  });

  /** A firm of a partner, an admin, a full and a group user who chose `chosen`; records who was emailed. */
  function firmChoosing(chosen: string[]) {
    const access = {
      firmContacts: async () => ({
        preferences: { firmUserIdsToReceiveDropLinkNotification: chosen },
        users: [
          { id: 'p', email: 'partner@firm.test', firmAccess: 'partner' },
          { id: 'a', email: 'admin@firm.test', firmAccess: 'admin' },
          { id: 'f', email: 'full@firm.test', firmAccess: 'full' },
          { id: 'g', email: 'group@firm.test', firmAccess: 'group' },
        ],
      }),
    } as unknown as AccessClient;
    const sent: string[] = [];
    const bus = {
      request: async (_contract: unknown, req: { to: string }) => {
        sent.push(req.to);
      },
    } as unknown as BusClient;
    const log = createLogger('test', 'silent');
    const warn = jest.spyOn(log, 'warn');
    const config = { PUBLIC_URL: 'https://portal.test' } as DocumentsConfig;
    return { notifier: new DropOffNotifier(access, bus, config, log), sent, warn };
  }

  it("go to the firm's partners, logged at warn, when nobody is chosen (a new firm's drop link)", async () => {
    const { notifier, sent, warn } = firmChoosing([]);
    await notifier.notify(event, 'e-4');
    // Before, nobody was told of the files stored.
    expect(sent).toEqual(['partner@firm.test']);
    expect(warn).toHaveBeenCalledWith(
      { firm_id: 'f-1', partners: 1 },
      'Drop-off received and no chosen user may open Drop Link; notifying the firm partners instead',
    );
  });

  it('go only to chosen users who may open Drop Link, and to the partners when none of them may', async () => {
    const chosen = firmChoosing(['g', 'f', 'gone']);
    await chosen.notifier.notify(event, 'e-5');
    expect(chosen.sent).toEqual(['full@firm.test']);
    expect(chosen.warn).not.toHaveBeenCalled();
    const nobodyLeft = firmChoosing(['g', 'gone']);
    await nobodyLeft.notifier.notify(event, 'e-6');
    expect(nobodyLeft.sent).toEqual(['partner@firm.test']);
    expect(nobodyLeft.warn).toHaveBeenCalledTimes(1);
  });

  it('keep to every chosen advisor while identity sends no firm access (an older identity)', () => {
    const users = [
      { id: 'p', firmAccess: '' },
      { id: 'g', firmAccess: '' },
    ];
    expect(dropLinkManagers(users)).toEqual(users);
    expect(dropOffRecipients(users, ['g'])).toEqual({ recipients: [users[1]], fallback: false });
  });
});
