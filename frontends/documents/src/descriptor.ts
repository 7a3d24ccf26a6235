import { defineDescriptor, specNav } from '@portico/kit';

/** What the documents area adds to the shell: the file manager for advisors and clients (STYLE 19). */
export default defineDescriptor({
  name: 'documents',
  routes: [
    { path: '/admin/:companyHash/documents', module: './Documents', layout: 'advisor', audience: 'advisor' },
    {
      path: '/documents',
      module: './Documents',
      layout: 'client',
      audience: 'client',
      hiddenBy: ['hide_documents_view_from_clients'],
    },
  ],
  nav: [specNav('entity-documents'), specNav('client-documents')],
  flags: [
    'disable_folder_action',
    'disable_file_edit_action',
    'document_tags_enabled',
    'hide_documents_view_from_clients',
  ],
});
