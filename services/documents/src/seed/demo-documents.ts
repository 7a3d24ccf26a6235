import { type Actor, BusClient } from '@portico/platform';
import { Documents, Identity } from '@portico/proto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

async function samplePdf(title: string, lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText(title, { x: 72, y: 700, size: 20, font });
  lines.forEach((line, i) => {
    page.drawText(line, { x: 72, y: 660 - i * 20, size: 12, font });
  });
  return Buffer.from(await doc.save());
}

const receipt = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 245, g: 240, b: 225 } } })
    .png()
    .toBuffer();

/**
 * Demo documents for every company of the demo firm, through the service's own calls (presigned upload,
 * PUT, process) as the firm's partner. Companies that already have files, or that take no uploads
 * (inactive, read-only), are left as they are.
 */
export async function seedDemoDocuments(bus: BusClient, slug: string): Promise<number> {
  const firm = await bus.request(Identity.firmContacts, { slug });
  const partner = firm.users.find((u) => u.email.startsWith('partner@')) ?? firm.users[0];
  if (!partner) return 0;
  const actor: Actor = { user_id: partner.id, firm_id: firm.firmId, role: 'advisor', firm_access: 'partner' };
  // The firm drop link needs someone to tell of drop-offs: the partner, until the firm chooses. Its
  // settings are closed while the firm has it switched off.
  if (firm.preferences?.dropLinkEnabled) {
    const dropLink = await bus.request(Documents.getDropLink, {}, { actor });
    if (!dropLink.notifyUserIds.length)
      await bus.request(Documents.saveDropLink, { notifyUserIds: [partner.id] }, { actor });
  }
  const { companies } = await bus.request(
    Identity.listCompanies,
    { page: 1, rowsPerPage: 50, includeInactive: true },
    { actor },
  );
  let seeded = 0;
  for (const company of companies) {
    if (company.inactive || company.readonlyAccess) continue;
    const root = await bus.request(Documents.getDocuments, { companyId: company.id, path: '' }, { actor });
    if (root.documents.some((d) => !d.isSystem)) continue;
    const year = String(new Date().getFullYear() - 1);
    await bus.request(Documents.createFolder, { companyId: company.id, path: '', name: year }, { actor });
    await bus.request(
      Documents.createFolder,
      { companyId: company.id, path: `/${year}`, name: 'Receipts' },
      { actor },
    );
    await upload(bus, actor, company.id, `/${year}`, [
      {
        name: `${year} W-2.pdf`,
        body: await samplePdf(`Form W-2 ${year}`, [company.name, 'Wages: 84,250.00']),
      },
      {
        name: `${year} 1099-INT.pdf`,
        body: await samplePdf(`Form 1099-INT ${year}`, ['Interest income: 312.45']),
      },
    ]);
    await upload(bus, actor, company.id, `/${year}/Receipts`, [
      { name: 'Office supplies.png', body: await receipt() },
    ]);
    // A folder some demo companies keep from their clients' changes (folders_where_client_actions_disabled).
    await bus.request(
      Documents.createFolder,
      { companyId: company.id, path: `/${year}`, name: 'Final' },
      { actor },
    );
    await upload(bus, actor, company.id, `/${year}/Final`, [
      { name: `${year} Final return.pdf`, body: await samplePdf(`Final return ${year}`, [company.name]) },
    ]);
    await upload(bus, actor, company.id, '', [
      { name: 'Engagement letter.pdf', body: await samplePdf('Engagement letter', [company.name]) },
    ]);
    await upload(
      bus,
      actor,
      company.id,
      '',
      [
        {
          name: `${Number(year) - 1} Tax Return.pdf`,
          body: await samplePdf('Prior-year return', [company.name]),
        },
      ],
      { documentType: 'prior_year_document', taxYear: String(Number(year) - 1) },
    );
    seeded++;
  }
  return seeded;
}

async function upload(
  bus: BusClient,
  actor: Actor,
  companyId: string,
  path: string,
  files: { name: string; body: Buffer }[],
  options: { documentType?: string; taxYear?: string } = {},
) {
  const { links } = await bus.request(
    Documents.createUploadLinks,
    { companyId, path, ...options, files: files.map((f) => ({ name: f.name, size: BigInt(f.body.length) })) },
    { actor },
  );
  for (const [i, link] of links.entries()) {
    const res = await fetch(link.url, { method: 'PUT', headers: link.headers, body: files[i]?.body });
    if (!res.ok) throw new Error(`Upload of ${files[i]?.name} failed with ${res.status}`);
  }
  await bus.request(
    Documents.processDocument,
    { companyId, path, ...options, uploadIds: links.map((l) => l.uploadId) },
    { actor },
  );
}
