import { defineDescriptor, specNav } from '@portico/kit';

/**
 * What the documents area adds to the shell (STYLE 19): the file manager for advisors and clients, the
 * drop link's settings (the Drop Link item) and the public pages of the firm drop link (/drop-link with
 * the link's id, /secure-upload for the portal's firm).
 */
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
    {
      path: '/drop-link-settings',
      module: './DropLinkSettings',
      layout: 'advisor',
      audience: 'advisor',
      firmAccess: ['partner', 'admin', 'full'],
      requires: ['drop_link_enabled'],
    },
    // Public: the shell serves it signed in or out, without the signed-in layout.
    { path: '/drop-link', module: './DropOff', layout: 'public', audience: 'public' },
    // The same page for the portal's own firm (or ?firm=slug), without the drop link id in the URL.
    { path: '/secure-upload', module: './DropOff', layout: 'public', audience: 'public' },
  ],
  nav: [specNav('entity-documents'), specNav('client-documents'), specNav('drop-link')],
  flags: [
    'disable_folder_action',
    'disable_file_edit_action',
    'document_tags_enabled',
    'hide_documents_view_from_clients',
    'drop_link_enabled',
    'hide_sign_in_button_on_drop_link',
  ],
});
