import { describe, expect, it } from '@jest/globals';
import type { ApiClient } from '@portico/kit';
import { type DocItem, documentsApi, expandLean } from '../api/documents-api.js';

const full: DocItem = {
  id: 'f-1',
  name: 'W-2.pdf',
  type: 'file',
  link: '/2024/W-2.pdf',
  description: 'From the employer',
  tags: ['2024'],
  created_at: '2026-01-02T03:04:05.000Z',
  updated_at: '2026-01-03T03:04:05.000Z',
  deleted_at: '',
  questionnaire_id: '',
  extracted_document_id: '',
  parent_document_id: '',
  items_count: 0,
  company_id: 'c-1',
  size: '1234',
  content_type: 'application/pdf',
  is_protected: true,
  staff_only: false,
  is_system: false,
  path: '/2024',
  preview_status: 'none',
  upload_type: '',
};

describe('the lean listing', () => {
  it('fills back the listing’s link, path and company and every default field', () => {
    const list = expandLean(
      {
        path: '/2024',
        count: 2,
        company_id: 'c-1',
        documents: [
          {
            id: 'd-1',
            name: 'Receipts',
            type: 'folder',
            created_at: '2026-01-01T00:00:00.000Z',
            items_count: 3,
          },
          {
            id: 'f-1',
            name: 'W-2.pdf',
            type: 'file',
            description: 'From the employer',
            tags: ['2024'],
            created_at: full.created_at,
            updated_at: full.updated_at,
            size: '1234',
            content_type: 'application/pdf',
            is_protected: true,
          },
        ],
      },
      'c-1',
    );
    expect(list.documents[1]).toEqual(full);
    expect(list.documents[0]).toEqual({
      id: 'd-1',
      name: 'Receipts',
      type: 'folder',
      link: '/2024/Receipts',
      path: '/2024',
      company_id: 'c-1',
      description: '',
      tags: [],
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      deleted_at: '',
      questionnaire_id: '',
      extracted_document_id: '',
      parent_document_id: '',
      items_count: 3,
      size: '0',
      content_type: '',
      is_protected: false,
      staff_only: false,
      is_system: false,
      preview_status: 'none',
      upload_type: '',
    });
  });

  it('links root items from the root and keeps full items as they are', () => {
    const root = expandLean(
      { path: '/', count: 1, documents: [{ ...full, path: '/', link: '/W-2.pdf' }] },
      'c-1',
    );
    expect(root.documents[0]).toEqual({ ...full, path: '/', link: '/W-2.pdf' });
    const named = expandLean(
      { path: '/', count: 1, documents: [{ id: 'x', name: 'a.txt', type: 'file', created_at: '' }] },
      'c-9',
    );
    expect(named.documents[0]).toMatchObject({ link: '/a.txt', path: '/', company_id: 'c-9' });
  });

  it('asks get_documents for the lean shape', async () => {
    const calls: { path: string; body: unknown }[] = [];
    const api = {
      post: async (path: string, body: unknown) => {
        calls.push({ path, body });
        return { documents: [], path: '/A', count: 0 };
      },
    } as unknown as ApiClient;
    const list = await documentsApi(api).list('c-1', '/A');
    expect(calls).toEqual([
      {
        path: '/integrations/get_documents',
        body: { companyId: 'c-1', path: '/A', showWithDeleted: false, lean: true },
      },
    ]);
    expect(list).toEqual({ documents: [], path: '/A', count: 0 });
  });
});
