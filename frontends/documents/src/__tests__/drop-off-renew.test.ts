import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { Handler } from '@portico/kit/testing';
import { waitFor } from '@testing-library/react';
import { documentsApi } from '../api/documents-api.js';
import { dropOffFiles } from '../drop-link/drop-off-upload.js';
import { PARALLEL_PUTS } from '../upload/upload.js';
import { type Body, type Call, FakeXhr, fakeApi, makeFakeXhr } from './fixtures.js';

const file = (name: string) => new File([new Uint8Array(10)], name, { type: 'application/pdf' });
const LINKS = '/integrations/drop_link/dl-1/upload_links';

/**
 * The drop link's answer to upload_links: a link per renewed upload (the same id, a new url), then a new
 * upload per file, each valid 15 minutes.
 */
function linksAnswer(call: Call) {
  const renew = (call.body.renewUploadIds as string[] | undefined) ?? [];
  const files = call.body.files as { name: string }[];
  const link = (uploadId: string, url: string) => ({
    upload_id: uploadId,
    file_name: uploadId,
    url,
    method: 'PUT',
    headers: {},
    expires_at: '',
    expires_in_seconds: 900,
  });
  return {
    body: {
      links: [
        ...renew.map((id) => link(id, `http://s3.test/renewed/${id}`)),
        ...files.map((f) => link(`up-${f.name}`, `http://s3.test/new/${f.name}`)),
      ],
    },
  };
}

/** The drop link's answer to process: every upload filed. */
const processAnswer = (call: Call) => ({
  body: {
    files: (call.body.uploadIds as string[]).map((id) => ({
      upload_id: id,
      document_name: id,
      message: 'Document(s) uploaded successfully',
    })),
    message: 'Document(s) uploaded successfully',
    invalid_files: [],
  },
});

const NOT_RENEWED = { status: 404, body: { error: 'Upload not found', message: 'Upload not found' } };
const renews = (call: Call) => Boolean((call.body.renewUploadIds as string[] | undefined)?.length);

describe('a drop-off that outlives its upload links', () => {
  let now = Date.now();
  const names = Array.from({ length: PARALLEL_PUTS + 2 }, (_, i) => `scan-${i}.pdf`);
  beforeEach(() => {
    FakeXhr.all = [];
    now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  /**
   * A drop-off of `names` through a gateway answering upload_links with `links` and process as filed.
   * The first files are sent; the links of the last two expire meanwhile (a slow connection), and their
   * PUTs are answered `lastStatus`.
   */
  async function slowDropOff(links: Handler<Body>, lastStatus = 200) {
    const { client, calls } = fakeApi((call) => {
      if (call.path === LINKS) return links(call);
      if (call.path === '/integrations/drop_link/dl-1/process') return processAnswer(call);
      return undefined;
    });
    const run = dropOffFiles({
      api: documentsApi(client),
      dropLinkId: 'dl-1',
      files: names.map(file),
      uploader: { uploaderName: 'Jo Visitor', uploaderEmail: 'jo@example.com', note: '' },
      makeXhr: makeFakeXhr,
    });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(PARALLEL_PUTS));
    now += 16 * 60_000;
    for (const x of FakeXhr.all) x.respond(200);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(PARALLEL_PUTS + 2));
    for (const x of FakeXhr.all.slice(PARALLEL_PUTS)) x.respond(lastStatus);
    return { outcome: await run, calls };
  }

  it('has the same uploads signed again, not new ones counted again against the firm’s day', async () => {
    const { outcome, calls } = await slowDropOff(linksAnswer);

    const linkCalls = calls.filter((c) => c.path === LINKS);
    expect(linkCalls).toHaveLength(2);
    // The renewal names the uploads of the files not sent yet, and asks for no new upload.
    expect(linkCalls[1]?.body).toEqual({
      files: [],
      renewUploadIds: names.slice(PARALLEL_PUTS).map((n) => `up-${n}`),
    });
    expect(FakeXhr.all.slice(PARALLEL_PUTS).map((x) => x.url)).toEqual(
      names.slice(PARALLEL_PUTS).map((n) => `http://s3.test/renewed/up-${n}`),
    );
    // Every file is filed under the upload it was first handed.
    const processCall = calls.find((c) => c.path.endsWith('/process'));
    const filed = (processCall?.body.uploadIds ?? []) as string[];
    expect([...filed].sort()).toEqual(names.map((n) => `up-${n}`).sort());
    expect(outcome.failed).toEqual([]);
  });

  it('asks new uploads for the files left when the firm renews them no more (a changed address: 404)', async () => {
    const { outcome, calls } = await slowDropOff((call) => (renews(call) ? NOT_RENEWED : linksAnswer(call)));
    const linkCalls = calls.filter((c) => c.path === LINKS);
    expect(linkCalls.map((c) => (c.body.files as unknown[]).length)).toEqual([names.length, 0, 2]);
    expect(FakeXhr.all.slice(PARALLEL_PUTS).map((x) => x.url)).toEqual(
      names.slice(PARALLEL_PUTS).map((n) => `http://s3.test/new/${n}`),
    );
    expect(outcome.failed).toEqual([]);
  });

  it('tells the visitor why the files left fail when no new links are given for them either', async () => {
    const DAY_USED =
      'This firm cannot take more files through its drop link today. Please try again tomorrow, or contact the firm.';
    let linkCalls = 0;
    // The expired links of the last two are still tried, and refused by storage.
    const { outcome } = await slowDropOff((call) => {
      linkCalls++;
      if (linkCalls === 1) return linksAnswer(call);
      if (renews(call)) return NOT_RENEWED;
      return { status: 429, body: { error: DAY_USED, message: DAY_USED } };
    }, 403);
    expect(outcome.failed).toEqual(names.slice(PARALLEL_PUTS));
    expect(outcome.errors).toEqual([DAY_USED]);
  });
});
