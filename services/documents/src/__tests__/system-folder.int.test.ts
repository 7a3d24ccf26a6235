import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Documents } from '@portico/proto';
import { type DocumentsHarness, startDocumentsHarness } from './harness.js';
import { pdf } from './samples.js';

jest.setTimeout(60_000);

const RESERVED = 'This folder is reserved and cannot be changed';
const SYSTEM_FOLDERS = ['/_portico', '/_portico/Signature Requests', '/_portico/Tax Return Delivery'];

/** The system folder '/_portico' (spec 3 s.9, spec 1 s.4.3): the product's, never a target by hand. */
describe('documents: the system folder', () => {
  let h: DocumentsHarness;
  const actor = (key: string) => h.actorOf(h.firm, key);
  const company = (key: string) => h.firm.companies[key]?.id as string;
  const names = async (key: string, path: string) =>
    (await h.list(actor('partner'), company(key), path)).documents.map((d) => d.name).sort();
  const move = (
    who: ReturnType<typeof actor>,
    req: {
      companyId: string;
      oldPath: string;
      newPath: string;
      deleteOldPath: boolean;
      newCompanyId?: string;
    },
  ) => h.bus.request(Documents.moveItem, { isFolder: false, newCompanyId: '', ...req }, { actor: who });

  beforeAll(async () => {
    h = await startDocumentsHarness('sysfolder');
    await h.upload(actor('partner'), company('llc'), [{ name: 'return.pdf', body: await pdf() }]);
    await h.bus.request(
      Documents.createFolder,
      { companyId: company('llc'), path: '', name: 'Receipts' },
      { actor: actor('partner') },
    );
    await h.upload(actor('partner'), company('individual'), [{ name: 'w2.pdf', body: await pdf() }]);
    // Listing a company's root is what creates its system folders.
    await h.list(actor('partner'), company('llc'));
    await h.list(actor('partner'), company('individual'));
  });
  afterAll(async () => {
    await h.stop();
  });

  it('refuses moving or copying a file or a folder into it or its subfolders, to every role', async () => {
    for (const key of ['partner', 'admin', 'full', 'client']) {
      for (const newPath of SYSTEM_FOLDERS) {
        for (const deleteOldPath of [true, false]) {
          await expect(
            move(actor(key), { companyId: company('llc'), oldPath: '/return.pdf', newPath, deleteOldPath }),
          ).rejects.toMatchObject({ status: 403, message: RESERVED });
        }
      }
    }
    await expect(
      move(actor('partner'), {
        companyId: company('llc'),
        oldPath: '/Receipts',
        newPath: '/_PORTICO/signature requests',
        deleteOldPath: true,
      }),
    ).rejects.toMatchObject({ status: 403, message: RESERVED });
    expect(await names('llc', '/_portico/Signature Requests')).toEqual([]);
    expect(await names('llc', '/_portico')).toEqual(['Signature Requests', 'Tax Return Delivery']);
    expect(await names('llc', '')).toEqual(expect.arrayContaining(['Receipts', 'return.pdf']));
  });

  it('refuses it as the target in another company of the firm too', async () => {
    for (const deleteOldPath of [true, false]) {
      await expect(
        move(actor('partner'), {
          companyId: company('individual'),
          oldPath: '/w2.pdf',
          newPath: '/_portico/Tax Return Delivery',
          deleteOldPath,
          newCompanyId: company('llc'),
        }),
      ).rejects.toMatchObject({ status: 403, message: RESERVED });
    }
    expect(await names('llc', '/_portico/Tax Return Delivery')).toEqual([]);
    expect(await names('individual', '')).toContain('w2.pdf');
  });

  it('refuses moving, copying, renaming or deleting the system folders themselves', async () => {
    for (const oldPath of SYSTEM_FOLDERS) {
      for (const deleteOldPath of [true, false]) {
        await expect(
          move(actor('partner'), { companyId: company('llc'), oldPath, newPath: '/Receipts', deleteOldPath }),
        ).rejects.toMatchObject({ status: 403 });
      }
      await expect(
        h.bus.request(
          Documents.deletePath,
          { companyId: company('llc'), path: oldPath },
          { actor: actor('admin') },
        ),
      ).rejects.toMatchObject({ status: 403 });
    }
    await expect(
      h.bus.request(
        Documents.renameItem,
        { companyId: company('llc'), path: '/_portico', itemName: 'Tax Return Delivery', newName: 'Mine' },
        { actor: actor('full') },
      ),
    ).rejects.toMatchObject({ status: 403, message: RESERVED });
    expect(await names('llc', '/Receipts')).toEqual([]);
  });

  it('refuses making a folder of one’s own the system folder, by a rename or a move, before the first listing has made the real one', async () => {
    // Lin's root is never listed here, so the system folders do not exist yet.
    const lin = company('lin');
    const asPartner = { actor: actor('partner') };
    await h.bus.request(Documents.createFolder, { companyId: lin, path: '', name: 'Mine' }, asPartner);
    await h.bus.request(
      Documents.createFolder,
      { companyId: lin, path: '/Mine', name: '_portico' },
      asPartner,
    );
    await h.upload(actor('partner'), lin, [{ name: 'planted.pdf', body: await pdf() }], {
      path: '/Mine/_portico',
    });
    for (const newName of ['_portico', '_PORTICO'])
      await expect(
        h.bus.request(
          Documents.renameItem,
          { companyId: lin, path: '', itemName: 'Mine', newName },
          asPartner,
        ),
      ).rejects.toMatchObject({ status: 403, message: RESERVED });
    for (const deleteOldPath of [true, false])
      await expect(
        move(actor('partner'), { companyId: lin, oldPath: '/Mine/_portico', newPath: '', deleteOldPath }),
      ).rejects.toMatchObject({ status: 403, message: RESERVED });
    // The first listing makes the real one, with nothing planted in it.
    expect(await names('lin', '')).toEqual(['Mine', '_portico']);
    expect(await names('lin', '/_portico')).toEqual(['Signature Requests', 'Tax Return Delivery']);
    expect(await names('lin', '/Mine/_portico')).toEqual(['planted.pdf']);
  });

  it('answers 404 before anything else to another firm, and to a client for a company not theirs', async () => {
    const stranger = h.actorOf(h.other, 'partner');
    await expect(
      move(stranger, {
        companyId: company('llc'),
        oldPath: '/return.pdf',
        newPath: '/_portico/Signature Requests',
        deleteOldPath: true,
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      move(actor('partner'), {
        companyId: company('llc'),
        oldPath: '/return.pdf',
        newPath: '/_portico',
        deleteOldPath: false,
        newCompanyId: h.other.companies.otto?.id as string,
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      move(actor('client'), {
        companyId: company('otto'),
        oldPath: '/return.pdf',
        newPath: '/_portico',
        deleteOldPath: true,
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      h.bus.request(
        Documents.deletePath,
        { companyId: company('llc'), path: '/_portico' },
        { actor: stranger },
      ),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('still copies a filed signature request out of it, and moves and copies elsewhere', async () => {
    await h.upload(actor('full'), company('llc'), [{ name: 'form.pdf', body: await pdf() }], {
      documentType: 'signature_request',
    });
    await move(actor('partner'), {
      companyId: company('llc'),
      oldPath: '/_portico/Signature Requests/form.pdf',
      newPath: '/Receipts',
      deleteOldPath: false,
    });
    await move(actor('partner'), {
      companyId: company('llc'),
      oldPath: '/return.pdf',
      newPath: '/Receipts',
      deleteOldPath: true,
    });
    expect(await names('llc', '/Receipts')).toEqual(['form.pdf', 'return.pdf']);
    expect(await names('llc', '/_portico/Signature Requests')).toEqual(['form.pdf']);
  });

  it('refuses plain uploads and new folders in it or below it, while the product still files there', async () => {
    // Also as a path whose names become the system folder's once sanitised.
    const folders = [...SYSTEM_FOLDERS, '/_PORTICO/Signature Requests/Mine', '/_portico#/Signature Requests'];
    for (const key of ['partner', 'admin', 'full', 'client']) {
      for (const path of folders) {
        await expect(
          h.upload(actor(key), company('llc'), [{ name: 'mine.pdf', body: await pdf() }], { path }),
        ).rejects.toMatchObject({ status: 403, message: RESERVED });
        await expect(
          h.bus.request(
            Documents.createFolder,
            { companyId: company('llc'), path, name: 'Mine' },
            { actor: actor(key) },
          ),
        ).rejects.toMatchObject({ status: 403, message: RESERVED });
      }
      // Naming a new folder '_portico' at the root is the system folder too.
      await expect(
        h.bus.request(
          Documents.createFolder,
          { companyId: company('llc'), path: '', name: '_Portico' },
          { actor: actor(key) },
        ),
      ).rejects.toMatchObject({ status: 403, message: RESERVED });
    }
    // A company of another firm answers 404 first.
    await expect(
      h.upload(h.actorOf(h.other, 'partner'), company('llc'), [{ name: 'x.pdf', body: await pdf() }], {
        path: '/_portico',
      }),
    ).rejects.toMatchObject({ status: 404 });
    const filed = await h.upload(
      actor('partner'),
      company('llc'),
      [{ name: 'return-2025.pdf', body: await pdf() }],
      {
        documentType: 'tax_return_delivery',
      },
    );
    expect(filed.files[0]).toMatchObject({
      documentLocation: '/_portico/Tax Return Delivery/return-2025.pdf',
    });
    expect(await names('llc', '/_portico')).toEqual(['Signature Requests', 'Tax Return Delivery']);
    expect(await names('llc', '/_portico/Signature Requests')).not.toContain('mine.pdf');
  });
});
